import { randomUUID } from 'node:crypto';
import { createReadStream, read } from 'node:fs';
import { mkdir, open, rename, rm, rmdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { concatFiles } from './file-concat.js';
import { assertSafeKey, type ObjectStorage } from './object-storage.js';
import { OpenFiles, readExactly } from './open-files.js';

/** Bytes a write holds before pushing back: room for several 64 KiB reads, written together (writev). */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** How often a write retries when another one removed its emptied folder between the mkdir and the write. */
const FOLDER_RACE_RETRIES = 5;

/**
 * Files under one folder. A write goes to a temporary name first and is renamed into place.
 * Folders exist only while they hold something: a write makes its folders as it starts, a failed
 * write removes the ones it made, and a delete or move removes the folders it leaves empty (a
 * refused upload leaves no trace, not even an empty tracks/ folder).
 */
export function createLocalStorage(
  root: string,
): ObjectStorage & Required<Pick<ObjectStorage, 'concat' | 'readRange'>> {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  const files = new OpenFiles();

  /** Removes `folder` and its parents while they are empty, up to `boundary` (which stays). */
  async function prune(folder: string, boundary = root): Promise<void> {
    for (
      let current = folder;
      current !== boundary && current.startsWith(boundary + path.sep);
      current = path.dirname(current)
    ) {
      try {
        await rmdir(current);
      } catch {
        // not empty (another file lives there) or already gone: the folders above are in use or gone too
        return;
      }
    }
  }

  /**
   * Runs `step` (which creates `file`) once its folder exists. Another call may prune the folder
   * between the mkdir and the step (ENOENT): the folder is made again. Says which folder this
   * call made first, if any, so that a failure can remove what it made.
   */
  async function inFolder<T>(file: string, step: () => Promise<T>): Promise<{ value: T; made: string | undefined }> {
    let made: string | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        // mkdir itself fails with ENOENT when a parent goes while it works down the path
        made ??= await mkdir(path.dirname(file), { recursive: true });
        return { value: await step(), made };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= FOLDER_RACE_RETRIES) {
          if (made) await prune(path.dirname(file), path.dirname(made));
          throw error;
        }
      }
    }
  }

  /** Writes a new file under a temporary name with `write`, then renames it to `target`; on failure nothing of it stays. */
  async function writeNew(target: string, write: (out: FileHandle) => Promise<void>): Promise<void> {
    const temporary = `${target}.${randomUUID()}.partial`;
    const { value: out, made } = await inFolder(temporary, () => open(temporary, 'wx'));
    try {
      await write(out);
      // a write stream on the handle closes it itself (-1 then)
      if (out.fd !== -1) await out.close();
      await rename(temporary, target);
      files.drop(target);
    } catch (error) {
      if (out.fd !== -1) await out.close().catch(() => undefined);
      await rm(temporary, { force: true });
      await prune(path.dirname(target), made ? path.dirname(made) : root);
      throw error;
    }
  }

  return {
    kind: 'local',
    async put(key, body) {
      await writeNew(resolve(key), (out) =>
        pipeline(body, out.createWriteStream({ highWaterMark: WRITE_BUFFER_BYTES })),
      );
    },
    async concat(sources, key) {
      const paths = sources.map(resolve);
      await writeNew(resolve(key), (out) => concatFiles(out, paths));
    },
    async get(key, range) {
      const file = resolve(key);
      // opening first fails at once for a missing file; a start makes every read positional, so
      // readers can share the descriptor
      const { fd, release } = await files.acquire(file);
      const stream = createReadStream(file, {
        fd,
        autoClose: false,
        // the descriptor is shared with other readers and closed by OpenFiles alone: a stream
        // destroyed early (a client that hung up) must not close it, which autoClose: false does
        // not prevent. Closed here, the number went to the next file opened in the process (in an
        // embedded deployment, one of PGlite's), which OpenFiles then closed in its turn.
        fs: { read, close: (_fd: number, done: (error?: Error | null) => void) => done(null) },
        start: range?.start ?? 0,
        ...(range ? { end: range.end } : {}),
      });
      stream.once('close', release);
      return stream;
    },
    async readRange(key, range) {
      const { fd, release } = await files.acquire(resolve(key));
      try {
        return await readExactly(fd, range.end - range.start + 1, range.start);
      } finally {
        release();
      }
    },
    async size(key) {
      try {
        return (await stat(resolve(key))).size;
      } catch {
        return undefined;
      }
    },
    async delete(key) {
      const file = resolve(key);
      files.drop(file);
      await unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
      await prune(path.dirname(file));
    },
    async move(from, to) {
      const source = resolve(from);
      const target = resolve(to);
      files.drop(source);
      files.drop(target);
      // a missing source is ENOENT too: after the retries it is reported as such
      await inFolder(target, () => rename(source, target));
      await prune(path.dirname(source));
    },
    async deletePrefix(prefix) {
      const folder = resolve(prefix.replace(/\/$/, ''));
      files.dropUnder(folder + path.sep);
      await rm(folder, { recursive: true, force: true });
      await prune(path.dirname(folder));
    },
    async presignedGetUrl() {
      return undefined;
    },
    localPath: (key) => resolve(key),
  };
}

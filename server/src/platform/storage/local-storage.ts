import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { concatFiles } from './file-concat.js';
import { assertSafeKey, type ObjectStorage } from './object-storage.js';
import { OpenFiles, readExactly } from './open-files.js';

/** Bytes a write holds before pushing back: room for several 64 KiB reads, written together (writev). */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** Files under one folder. A write goes to a temporary name first and is renamed into place. */
export function createLocalStorage(root: string): ObjectStorage & Required<Pick<ObjectStorage, 'concat' | 'readRange'>> {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };
  const files = new OpenFiles();
  return {
    kind: 'local',
    async put(key, body) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomUUID()}.partial`;
      try {
        await pipeline(body, createWriteStream(temporary, { flags: 'wx', highWaterMark: WRITE_BUFFER_BYTES }));
        await rename(temporary, target);
        files.drop(target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async concat(sources, key) {
      const target = resolve(key);
      const paths = sources.map(resolve);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomUUID()}.partial`;
      const out = await open(temporary, 'wx');
      try {
        await concatFiles(out, paths);
        await out.close();
        await rename(temporary, target);
        files.drop(target);
      } catch (error) {
        await out.close().catch(() => undefined);
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key, range) {
      const file = resolve(key);
      // opening first fails at once for a missing file; a start makes every read positional, so
      // readers can share the descriptor
      const { fd, release } = await files.acquire(file);
      const stream = createReadStream(file, { fd, autoClose: false, start: range?.start ?? 0, ...(range ? { end: range.end } : {}) });
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
      files.drop(resolve(key));
      await unlink(resolve(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
    async move(from, to) {
      const source = resolve(from);
      const target = resolve(to);
      await mkdir(path.dirname(target), { recursive: true });
      files.drop(source);
      files.drop(target);
      await rename(source, target);
      // the folder the object came from is left empty more often than not: it goes too
      await rmdir(path.dirname(source)).catch(() => undefined);
    },
    async deletePrefix(prefix) {
      files.dropUnder(resolve(prefix.replace(/\/$/, '')) + path.sep);
      await rm(resolve(prefix.replace(/\/$/, '')), { recursive: true, force: true });
    },
    async presignedGetUrl() {
      return undefined;
    },
    localPath: (key) => resolve(key),
  };
}

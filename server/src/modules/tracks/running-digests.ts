import { createHash, type Hash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';

/** Sessions followed at once on one instance; past it the oldest is forgotten (its complete reads the file). */
const MAX_SESSIONS = 200;
const READ_BLOCK_BYTES = 1024 * 1024;

interface Running {
  hash: Hash;
  /** The identity of each chunk file hashed so far, in order. */
  stamps: string[];
  work: Promise<void>;
}

/** What changes when a chunk file is replaced: chunks are renamed into place, so a re-sent one is a new file. */
const stampOf = (info: { dev: bigint; ino: bigint; size: bigint; ctimeNs: bigint }) => `${info.dev}:${info.ino}:${info.size}:${info.ctimeNs}`;

/**
 * The md5 of a chunked upload, computed while its chunks arrive on this instance (each chunk read
 * back from the page cache as soon as the ones before it are in), so that complete need not read
 * the whole file again. Only a hint, on local disk: complete takes it only when every chunk file is
 * still the very file that was hashed (chunks re-sent, received by another instance or in another
 * order are then read as before).
 */
export class RunningDigests {
  private readonly sessions = new Map<string, Running>();

  constructor(
    private readonly storage: ObjectStorage,
    private readonly chunkKey: (uploadId: string, chunkNumber: number) => string,
  ) {}

  /** A chunk of `uploadId` was stored: hashes, in the background, the chunks now in order. Never fails. */
  chunkStored(uploadId: string, totalChunks: number): Promise<void> {
    if (this.storage.kind !== 'local') return Promise.resolve();
    let running = this.sessions.get(uploadId);
    if (!running) {
      running = { hash: createHash('md5'), stamps: [], work: Promise.resolve() };
      this.sessions.set(uploadId, running);
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    }
    const current = running;
    current.work = current.work.then(() => this.advance(uploadId, current, totalChunks)).catch(() => {
      // an unreadable chunk: this session's md5 is read at complete
      this.sessions.delete(uploadId);
    });
    return current.work;
  }

  private async advance(uploadId: string, running: Running, totalChunks: number): Promise<void> {
    while (running.stamps.length < totalChunks && this.sessions.get(uploadId) === running) {
      const file = this.storage.localPath(this.chunkKey(uploadId, running.stamps.length));
      if (!file) return;
      const handle = await open(file, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined; // not in yet
        throw error;
      });
      if (!handle) return;
      try {
        const stamp = stampOf(await handle.stat({ bigint: true }));
        const buffer = Buffer.allocUnsafe(READ_BLOCK_BYTES);
        for (;;) {
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
          if (bytesRead === 0) break;
          running.hash.update(buffer.subarray(0, bytesRead));
        }
        running.stamps.push(stamp);
      } finally {
        await handle.close();
      }
    }
  }

  /**
   * The md5 of the chunks of `uploadId` one after another, if every one of the `totalChunks` chunk
   * files is still the file that was hashed; else undefined. Call it after the chunks were copied:
   * a file unchanged after the copy was unchanged during it.
   */
  async digest(uploadId: string, totalChunks: number): Promise<string | undefined> {
    const running = this.sessions.get(uploadId);
    if (!running) return undefined;
    await running.work;
    if (running.stamps.length !== totalChunks) return undefined;
    for (const [n, stamp] of running.stamps.entries()) {
      const file = this.storage.localPath(this.chunkKey(uploadId, n));
      const now = file ? await stat(file, { bigint: true }).then(stampOf, () => undefined) : undefined;
      if (now !== stamp) return undefined;
    }
    return running.hash.copy().digest('hex');
  }

  forget(uploadId: string): void {
    this.sessions.delete(uploadId);
  }
}

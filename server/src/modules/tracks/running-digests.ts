import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';

/** Sessions followed at once on one instance; past it the oldest is forgotten (its complete reads the file). */
const MAX_SESSIONS = 200;

/**
 * The hashing thread: md5 states by upload, fed whole chunk files. Plain JavaScript, evaluated, so
 * that it runs the same under tsx, vitest and a build. Its reply stamps the file it read (see stampOf).
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { openSync, fstatSync, readSync, closeSync } = require('node:fs');
const hashes = new Map();
const buffer = Buffer.allocUnsafe(1024 * 1024);
parentPort.on('message', (message) => {
  const { id, op, uploadId } = message;
  if (op === 'forget') return void hashes.delete(uploadId);
  if (op === 'digest') return parentPort.postMessage({ id, md5: hashes.has(uploadId) ? hashes.get(uploadId).copy().digest('hex') : null });
  let fd;
  try {
    fd = openSync(message.path, 'r');
  } catch (error) {
    return parentPort.postMessage({ id, error: error.code || String(error) });
  }
  try {
    const info = fstatSync(fd, { bigint: true });
    if (!hashes.has(uploadId)) hashes.set(uploadId, createHash('md5'));
    const hash = hashes.get(uploadId);
    for (let read; (read = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, read));
    parentPort.postMessage({ id, stamp: info.dev + ':' + info.ino + ':' + info.size + ':' + info.ctimeNs });
  } catch (error) {
    hashes.delete(uploadId);
    parentPort.postMessage({ id, error: 'EBROKEN' });
  } finally {
    closeSync(fd);
  }
});
`;

interface Reply {
  id: number;
  stamp?: string;
  md5?: string | null;
  error?: string;
}

interface Running {
  /** The identity of each chunk file hashed so far, in order. */
  stamps: string[];
  work: Promise<void>;
}

/** What changes when a chunk file is replaced: chunks are renamed into place, so a re-sent one is a new file. */
const stampOf = (info: { dev: bigint; ino: bigint; size: bigint; ctimeNs: bigint }) =>
  `${info.dev}:${info.ino}:${info.size}:${info.ctimeNs}`;

/**
 * The md5 of a chunked upload, computed while its chunks arrive on this instance (each chunk read
 * back from the page cache by a thread of its own as soon as the ones before it are in, off the
 * thread that receives the next), so that complete need not read the whole file again. Only a
 * hint, on local disk: complete takes it only when every chunk file is still the very file that was
 * hashed (chunks re-sent, received by another instance or in another order are read as before).
 */
export class RunningDigests {
  private readonly sessions = new Map<string, Running>();
  private worker: Worker | undefined;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private nextId = 0;

  constructor(
    private readonly storage: ObjectStorage,
    private readonly chunkKey: (uploadId: string, chunkNumber: number) => string,
  ) {}

  private ask(
    message: { op: 'hash'; uploadId: string; path: string } | { op: 'digest'; uploadId: string },
  ): Promise<Reply> {
    if (!this.worker) {
      const worker = new Worker(WORKER_SOURCE, { eval: true });
      // an idle hashing thread keeps nobody alive
      worker.unref();
      worker.on('message', (reply: Reply) => {
        this.pending.get(reply.id)?.(reply);
        this.pending.delete(reply.id);
      });
      const lost = () => {
        // every md5 under way went with it: those sessions are read back at complete
        if (this.worker !== worker) return;
        this.worker = undefined;
        this.sessions.clear();
        for (const answer of this.pending.values()) answer({ id: -1, error: 'EBROKEN' });
        this.pending.clear();
      };
      worker.on('error', lost);
      worker.on('exit', lost);
      this.worker = worker;
    }
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ id, ...message });
    });
  }

  private drop(uploadId: string): void {
    this.sessions.delete(uploadId);
    this.worker?.postMessage({ id: -1, op: 'forget', uploadId });
  }

  /** A chunk of `uploadId` was stored: hashes, in the background, the chunks now in order. Never fails. */
  chunkStored(uploadId: string, totalChunks: number): Promise<void> {
    if (this.storage.kind !== 'local') return Promise.resolve();
    let running = this.sessions.get(uploadId);
    if (!running) {
      running = { stamps: [], work: Promise.resolve() };
      this.sessions.set(uploadId, running);
      if (this.sessions.size > MAX_SESSIONS) this.drop(this.sessions.keys().next().value!);
    }
    const current = running;
    current.work = current.work
      .then(() => this.advance(uploadId, current, totalChunks))
      .catch(() => this.drop(uploadId));
    return current.work;
  }

  private async advance(uploadId: string, running: Running, totalChunks: number): Promise<void> {
    while (running.stamps.length < totalChunks && this.sessions.get(uploadId) === running) {
      const file = this.storage.localPath(this.chunkKey(uploadId, running.stamps.length));
      if (!file) return;
      const reply = await this.ask({ op: 'hash', uploadId, path: file });
      if (reply.error === 'ENOENT') return; // not in yet
      if (reply.error || !reply.stamp) throw new Error(`chunk hashing failed: ${reply.error}`);
      running.stamps.push(reply.stamp);
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
    if (this.sessions.get(uploadId) !== running || running.stamps.length !== totalChunks) return undefined;
    for (const [n, stamp] of running.stamps.entries()) {
      const file = this.storage.localPath(this.chunkKey(uploadId, n));
      const now = file ? await stat(file, { bigint: true }).then(stampOf, () => undefined) : undefined;
      if (now !== stamp) return undefined;
    }
    const reply = await this.ask({ op: 'digest', uploadId });
    return reply.md5 ?? undefined;
  }

  forget(uploadId: string): void {
    this.drop(uploadId);
  }
}

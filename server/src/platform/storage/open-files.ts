import { close, open, read } from 'node:fs';

interface Entry {
  fd: Promise<number>;
  users: number;
  lastUsed: number;
}

export interface OpenFile {
  fd: number;
  /** Gives the descriptor back; it stays open for the next reader until it has been idle a while. */
  release(): void;
}

/**
 * Descriptors of files read recently, kept open for the next reader: a player asks for one Range
 * after another, and each would otherwise cost an open and a close (two trips to the thread pool
 * of the three a small range takes). Only for files that never change once written (storage keys
 * are new for every version); a file deleted or moved through the storage is dropped at once, and
 * a descriptor idle for `idleMs` is closed.
 */
export class OpenFiles {
  private readonly entries = new Map<string, Entry>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs = 2000,
    private readonly capacity = 256,
  ) {}

  async acquire(file: string): Promise<OpenFile> {
    let entry = this.entries.get(file);
    if (entry) {
      entry.users++;
    } else {
      // held from the start: trimming only closes descriptors no reader holds
      entry = { fd: openForReading(file), users: 1, lastUsed: Date.now() };
      this.entries.set(file, entry);
      this.trim();
      this.sweep();
      const opened = entry;
      opened.fd.catch(() => {
        if (this.entries.get(file) === opened) this.entries.delete(file);
      });
    }
    let fd: number;
    try {
      fd = await entry.fd;
    } catch (error) {
      entry.users--;
      throw error;
    }
    const held = entry;
    let released = false;
    return {
      fd,
      release: () => {
        if (released) return;
        released = true;
        held.users--;
        held.lastUsed = Date.now();
        // dropped while in use: the last user closes it
        if (held.users === 0 && this.entries.get(file) !== held) closeEntry(held);
      },
    };
  }

  /** Forgets a file (deleted or moved): its descriptor closes once no reader holds it. */
  drop(file: string): void {
    const entry = this.entries.get(file);
    if (!entry) return;
    this.entries.delete(file);
    if (entry.users === 0) closeEntry(entry);
  }

  /** Forgets every file under a folder. */
  dropUnder(folder: string): void {
    for (const file of [...this.entries.keys()]) if (file.startsWith(folder)) this.drop(file);
  }

  closeAll(): void {
    for (const file of [...this.entries.keys()]) this.drop(file);
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private trim(): void {
    if (this.entries.size <= this.capacity) return;
    for (const [file, entry] of this.entries) {
      if (this.entries.size <= this.capacity) break;
      if (entry.users === 0) this.drop(file);
    }
  }

  private sweep(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => {
      const now = Date.now();
      for (const [file, entry] of this.entries)
        if (entry.users === 0 && now - entry.lastUsed >= this.idleMs) this.drop(file);
      if (this.entries.size === 0) {
        clearInterval(this.sweeper);
        this.sweeper = undefined;
      }
    }, this.idleMs);
    this.sweeper.unref();
  }
}

function openForReading(file: string): Promise<number> {
  return new Promise((resolve, reject) => open(file, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
}

function closeEntry(entry: Entry): void {
  entry.fd.then(
    (fd) => close(fd, () => undefined),
    () => undefined,
  );
}

/** Reads `length` bytes at `position` whole (a regular file answers short only at its end: then an error). */
export async function readExactly(fd: number, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const bytes = await new Promise<number>((resolve, reject) =>
      read(fd, buffer, done, length - done, position + done, (error, count) =>
        error ? reject(error) : resolve(count),
      ),
    );
    if (bytes === 0)
      throw Object.assign(new Error(`the file ends before byte ${position + length}`), { code: 'ESHORT' });
    done += bytes;
  }
  return buffer;
}

import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalStorage } from '../../server/src/platform/storage/local-storage.js';
import { OpenFiles, readExactly } from '../../server/src/platform/storage/open-files.js';

let root: string;
let storage: ReturnType<typeof createLocalStorage>;
const bytes = randomBytes(400_000);

const openDescriptors = async () => (await readdir('/proc/self/fd')).length;
const collect = async (stream: Readable) => Buffer.concat(await stream.toArray());

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'riff-reads-'));
  storage = createLocalStorage(root);
  await storage.put('tracks/a/original', Readable.from([bytes]));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('local storage reads (descriptors kept open between ranges)', () => {
  it('a small range and a streamed range give the bytes at their offsets, many at once on one descriptor', async () => {
    const ranges = Array.from({ length: 40 }, (_, n) => ({ start: n * 7000 + n, end: n * 7000 + n + 65_535 }));
    const read = await Promise.all(ranges.map((range) => storage.readRange('tracks/a/original', range)));
    const streamed = await Promise.all(
      ranges.map(async (range) => collect(await storage.get('tracks/a/original', range))),
    );
    ranges.forEach((range, n) => {
      expect(read[n]!.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      expect(streamed[n]!.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
    });
    expect((await collect(await storage.get('tracks/a/original'))).equals(bytes)).toBe(true);
  });

  it('a reader that stops early (destroyed: a client hung up) leaves the shared descriptor to the others', async () => {
    const key = 'tracks/early/original';
    await storage.put(key, Readable.from([bytes]));
    const first = await storage.get(key);
    const second = await storage.get(key);
    first.destroy();
    await new Promise((resolve) => first.once('close', resolve));
    // the other reader of the same descriptor reads on, whole
    expect((await collect(second)).equals(bytes)).toBe(true);
    // and a later one too, from the descriptor kept open
    expect((await collect(await storage.get(key))).equals(bytes)).toBe(true);
  });

  it('an object written again, deleted or moved is read afresh, never from the old descriptor', async () => {
    const range = { start: 10, end: 19 };
    await storage.put('tracks/b/original', Readable.from([Buffer.alloc(100, 1)]));
    expect(await storage.readRange('tracks/b/original', range)).toEqual(Buffer.alloc(10, 1));
    await storage.put('tracks/b/original', Readable.from([Buffer.alloc(100, 2)]));
    expect(await storage.readRange('tracks/b/original', range)).toEqual(Buffer.alloc(10, 2));
    await storage.move('tracks/b/original', 'tracks/c/original');
    await expect(storage.readRange('tracks/b/original', range)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.readRange('tracks/c/original', range)).toEqual(Buffer.alloc(10, 2));
    await storage.delete('tracks/c/original');
    await expect(storage.readRange('tracks/c/original', range)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(storage.get('tracks/c/original')).rejects.toMatchObject({ code: 'ENOENT' });
    await storage.put('tracks/d/original', Readable.from([Buffer.alloc(100, 3)]));
    expect(await storage.readRange('tracks/d/original', range)).toEqual(Buffer.alloc(10, 3));
    await storage.deletePrefix('tracks/d/');
    await expect(storage.readRange('tracks/d/original', range)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a range past the end of the file is an error, not a short reply', async () => {
    await expect(
      storage.readRange('tracks/a/original', { start: bytes.length - 5, end: bytes.length + 5 }),
    ).rejects.toMatchObject({ code: 'ESHORT' });
  });

  it('descriptors close once idle, and one a reader still holds closes only after it is released', async () => {
    const files = new OpenFiles(30);
    const file = path.join(root, 'tracks/a/original');
    const before = await openDescriptors();
    const first = await files.acquire(file);
    const second = await files.acquire(file);
    expect(second.fd).toBe(first.fd);
    expect(await openDescriptors()).toBe(before + 1);
    files.drop(file);
    first.release();
    // still held by the second reader
    expect(await openDescriptors()).toBe(before + 1);
    second.release();
    await vi.waitFor(async () => expect(await openDescriptors()).toBe(before));

    const again = await files.acquire(file);
    expect(await openDescriptors()).toBe(before + 1);
    again.release();
    await vi.waitFor(async () => expect(await openDescriptors()).toBe(before), { timeout: 2000 });
    files.closeAll();
  });

  it('past its capacity it closes only descriptors nobody holds: every reader keeps a working one', async () => {
    const files = new OpenFiles(30, 2);
    const names = ['x', 'y', 'z'];
    for (const name of names) await storage.put(`tracks/${name}/original`, Readable.from([Buffer.alloc(16, name)]));
    const before = await openDescriptors();
    const held = await Promise.all(names.map((name) => files.acquire(path.join(root, `tracks/${name}/original`))));
    expect(new Set(held.map((open) => open.fd)).size).toBe(3);
    for (const [index, open] of held.entries()) {
      expect((await readExactly(open.fd, 4, 0)).toString()).toBe(names[index]!.repeat(4));
    }
    for (const open of held) open.release();
    await vi.waitFor(async () => expect(await openDescriptors()).toBe(before), { timeout: 2000 });
    files.closeAll();
  });
});

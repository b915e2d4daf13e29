import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatFiles } from '../../server/src/platform/storage/file-concat.js';
import { createLocalStorage } from '../../server/src/platform/storage/local-storage.js';

let root: string;
let storage: ReturnType<typeof createLocalStorage>;
const parts = [randomBytes(300_000), randomBytes(1), randomBytes(5 * 1024 * 1024 + 7)];
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'riff-concat-'));
  storage = createLocalStorage(root);
  for (const [n, part] of parts.entries()) await storage.put(`uploads/s/${n}`, Readable.from([part]));
});
afterAll(() => rm(root, { recursive: true, force: true }));

const keys = parts.map((_, n) => `uploads/s/${n}`);

describe('local storage concat', () => {
  it('writes the objects one after another, in the order given', async () => {
    await storage.concat(keys, 'tracks/a/original');
    expect(md5(await readFile(path.join(root, 'tracks/a/original')))).toBe(md5(Buffer.concat(parts)));
    await storage.concat([...keys].reverse(), 'tracks/b/original');
    expect(md5(await readFile(path.join(root, 'tracks/b/original')))).toBe(md5(Buffer.concat([...parts].reverse())));
  });

  it('copies in Node when there is no cat to run', async () => {
    const pathBefore = process.env.PATH;
    process.env.PATH = path.join(root, 'no-such-folder');
    try {
      await storage.concat(keys, 'tracks/c/original');
    } finally {
      process.env.PATH = pathBefore;
    }
    expect(md5(await readFile(path.join(root, 'tracks/c/original')))).toBe(md5(Buffer.concat(parts)));
  });

  it('a missing source fails the copy and leaves nothing behind', async () => {
    await expect(storage.concat([keys[0]!, 'uploads/s/missing'], 'tracks/d/original')).rejects.toThrow();
    expect(await storage.size('tracks/d/original')).toBeUndefined();
    // not even the folder the copy made for it
    expect(existsSync(path.join(root, 'tracks/d'))).toBe(false);
  });

  it('the copy without cat never reuses a buffer while its write is still running (a slow disk)', async () => {
    const target = path.join(root, 'slow-copy');
    const file = await open(target, 'w');
    // a write that takes its bytes from the buffer only after a while, as a busy disk does
    const slow = new Proxy(file, {
      get(handle, property) {
        if (property === 'write')
          return async (buffer: Buffer, offset: number, length: number, position: number) => {
            await new Promise((resolve) => setTimeout(resolve, 20));
            return handle.write(buffer, offset, length, position);
          };
        const value = Reflect.get(handle, property) as unknown;
        return typeof value === 'function' ? value.bind(handle) : value;
      },
    });
    const pathBefore = process.env.PATH;
    process.env.PATH = path.join(root, 'no-such-folder');
    try {
      await concatFiles(
        slow,
        keys.map((key) => path.join(root, ...key.split('/'))),
      );
    } finally {
      process.env.PATH = pathBefore;
      await file.close();
    }
    expect(md5(await readFile(target))).toBe(md5(Buffer.concat(parts)));
  });
});

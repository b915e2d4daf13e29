import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../server/src/platform/storage/local-storage.js';
import { signedInUser } from '../support/accounts.js';
import { audioForm, silentWav, uploadForm } from '../support/audio.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** Every folder and file under `root`, relative to it ([] when it does not exist). */
async function tree(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)) + (entry.isDirectory() ? '/' : ''))
      .sort();
  } catch {
    return [];
  }
}

describe('refused uploads leave no folders in local storage', () => {
  let server: TestServer;
  beforeAll(async () => {
    // a fresh DATA_DIR: nothing under files/ yet
    server = await startTestServer({ UPLOAD_MAX_BYTES: '20000', UPLOAD_CHUNK_MAX_BYTES: '10000' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a file that is not audio (400) or too large (413), and an over-limit chunk: files/ holds no tracks/, uploads/ or staging/ folder', async () => {
    const files = path.join(server.dataDir, 'files');
    expect(await tree(files)).toEqual([]);
    const user = await signedInUser(server);

    const notAudio = await uploadForm(
      server.baseUrl,
      user.accessToken,
      audioForm(Buffer.from('just some text, no sound at all'.repeat(50)), 'notes.mp3'),
    );
    expect([notAudio.status, notAudio.body.error.code]).toEqual([400, 'INVALID_AUDIO']);
    const tooLarge = await uploadForm(server.baseUrl, user.accessToken, audioForm(silentWav(30_000), 'long.wav'));
    expect([tooLarge.status, tooLarge.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);

    const session = await fetch(`${server.baseUrl}/api/v1/tracks/initiate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ filename: 'x.wav', total_chunks: 2, total_size: 20_000 }),
    }).then((reply) => reply.json() as Promise<any>);
    const form = new FormData();
    for (const [name, value] of Object.entries({
      upload_id: session.data.upload_id,
      chunk_number: '0',
      total_chunks: '2',
      total_size: '20000',
      filename: 'x.wav',
    }))
      form.append(name, value);
    form.append('chunk', new Blob([new Uint8Array(12_000)]), 'blob');
    const chunk = await uploadForm(server.baseUrl, user.accessToken, form, '/api/v1/tracks/chunk');
    expect([chunk.status, chunk.body.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);

    expect((await tree(files)).filter((entry) => !entry.startsWith('media/'))).toEqual([]);
  });
});

describe('local storage folders', () => {
  let root: string;
  beforeAll(async () => {
    root = path.join(await mkdtemp(path.join(tmpdir(), 'riff-folders-')), 'files');
  });
  afterAll(async () => {
    await rm(path.dirname(root), { recursive: true, force: true });
  });

  it('a write that fails removes the folders it made; a delete removes the folders it empties, never a folder still in use', async () => {
    const storage = createLocalStorage(root);
    const failing = new Readable({
      read() {
        this.destroy(new Error('the client went away'));
      },
    });
    await expect(storage.put('tracks/a/original', failing)).rejects.toThrow('the client went away');
    expect(await tree(path.dirname(root))).toEqual([]);

    await storage.put('tracks/a/original', Readable.from([Buffer.from('a')]));
    await storage.put('tracks/b/original', Readable.from([Buffer.from('b')]));
    await storage.delete('tracks/a/original');
    expect(await tree(root)).toEqual(['tracks/', 'tracks/b/', 'tracks/b/original']);
    await storage.deletePrefix('tracks/b/');
    expect(await tree(root)).toEqual([]);

    // a folder that holds something the storage did not write stays
    await storage.put('uploads/u/0', Readable.from([Buffer.from('0')]));
    await writeFile(path.join(root, 'uploads', 'keep'), 'x');
    await storage.move('uploads/u/0', 'tracks/c/original');
    expect(await tree(root)).toEqual(['tracks/', 'tracks/c/', 'tracks/c/original', 'uploads/', 'uploads/keep']);
  });

  it('writes into the same folder at once while others empty it: every write lands', async () => {
    const storage = createLocalStorage(root);
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const key = `race/f/${i}`;
        await storage.put(key, Readable.from([Buffer.from(String(i))]));
        await storage.delete(key);
        await storage.put(key, Readable.from([Buffer.from(String(i))]));
      }),
    );
    expect((await tree(path.join(root, 'race', 'f'))).length).toBe(40);
  });
});

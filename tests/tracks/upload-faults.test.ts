import { readdir, readlink } from 'node:fs/promises';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { audioForm, makeAudio, uploadForm, uploadFormStreamed } from '../support/audio.js';
import { intentKeys, newIntents } from '../support/storage-intents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let http: ReturnType<typeof api>;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_CHUNK_MAX_BYTES: '1000', QUOTA_BYTES: '5000000' });
  http = api(server.baseUrl);
});
afterAll(async () => {
  await server?.close();
});

async function initiate(token: string, totalSize: number, totalChunks = Math.ceil(totalSize / 1000)) {
  return http.post('/tracks/initiate', {
    token,
    body: { filename: 'x.wav', total_chunks: totalChunks, total_size: totalSize },
  });
}

/** Every file under the data folder's files/, and every folder there that is empty. */
async function storageEntries() {
  const root = path.join(server.dataDir, 'files');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
  const emptyFolders: string[] = [];
  for (const entry of entries.filter((item) => item.isDirectory())) {
    const full = path.join(entry.parentPath, entry.name);
    if ((await readdir(full)).length === 0) emptyFolders.push(path.relative(root, full));
  }
  return { files, emptyFolders };
}

/** Descriptors this process (which runs the test server) holds on stored files (not the embedded database's). */
async function openDataFiles(): Promise<string[]> {
  const open: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(path.join(server.dataDir, 'files'))) open.push(target);
  }
  return open;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(process.platform === 'linux')('chunk uploads cut off by the client', () => {
  it('a client closing the socket right after the part headers leaves no open descriptor and no .partial', async () => {
    const user = await signedInUser(server);
    const intentsBefore = await intentKeys(server);
    const session = (await initiate(user.accessToken, 1000)).body.data;
    const url = new URL(server.directUrl);
    const boundary = 'riffcut';
    const fields = {
      upload_id: session.upload_id,
      chunk_number: '0',
      total_chunks: '1',
      total_size: '1000',
      filename: 'x.wav',
    };
    const head =
      Object.entries(fields)
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\n\r\n`;
    for (let attempt = 0; attempt < 75; attempt++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(url.port), url.hostname, () => {
          socket.write(
            `POST /api/v1/tracks/chunk HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
              `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 1000 + 100}\r\n\r\n${head}`,
            // gone 0 to 24 ms after the part headers are out: at varying points of the server's work on them
            () => setTimeout(() => socket.destroy(), attempt % 25),
          );
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    // every cut-off request settles: nothing open, nothing half-written, no storage intent left to the 24 h sweep
    const intents = () => newIntents(server, intentsBefore);
    await eventually(async () => (await openDataFiles()).length === 0 && (await intents()).length === 0);
    expect(await openDataFiles()).toEqual([]);
    expect(await intents()).toEqual([]);
    expect((await storageEntries()).files.filter((file) => file.includes('partial'))).toEqual([]);
    // and the server still takes the chunk afterwards
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('chunk', new Blob([new Uint8Array(Buffer.alloc(1000, 1))]), 'blob');
    expect((await uploadForm(server.baseUrl, user.accessToken, form, '/api/v1/tracks/chunk')).status).toBe(200);
  });

  it('with a chunk limit below 64 KiB, an over-limit chunk still gets its 413', async () => {
    const user = await signedInUser(server);
    const session = (await initiate(user.accessToken, 2000, 2)).body.data;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      upload_id: session.upload_id,
      chunk_number: '0',
      total_chunks: '2',
      total_size: '2000',
      filename: 'x.wav',
    }))
      form.append(name, value);
    form.append('chunk', new Blob([new Uint8Array(Buffer.alloc(1500, 1))]), 'blob');
    const response = await fetch(`${server.baseUrl}/api/v1/tracks/chunk`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${user.accessToken}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as any).error.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('chunked sessions and the quota', () => {
  it('the quota shows what open sessions reserve; the owner can cancel a session, which frees it', async () => {
    const user = await signedInUser(server);
    const other = await signedInUser(server);
    const started = await initiate(user.accessToken, 3_000_000, 3000);
    expect(started.status).toBe(200);
    const uploadId = started.body.data.upload_id as string;
    const form = new FormData();
    for (const [name, value] of Object.entries({
      upload_id: uploadId,
      chunk_number: '0',
      total_chunks: '3000',
      total_size: '3000000',
      filename: 'x.wav',
    }))
      form.append(name, value);
    form.append('chunk', new Blob([new Uint8Array(Buffer.alloc(1000, 1))]), 'blob');
    expect((await uploadForm(server.baseUrl, user.accessToken, form, '/api/v1/tracks/chunk')).status).toBe(200);

    const quota = await http.get('/tracks/quota/me', { token: user.accessToken });
    expect(quota.body.data.quota).toEqual({
      used_bytes: 0,
      cloud_bytes: 0,
      reserved_bytes: 3_000_000,
      limit_bytes: 5_000_000,
      remaining_bytes: 2_000_000,
      track_count: 0,
    });

    // only the owner may cancel; for anyone else the session does not exist
    expect((await http.delete(`/tracks/resume/${uploadId}`, { token: other.accessToken })).status).toBe(404);
    expect((await http.delete(`/tracks/resume/${uploadId}`)).status).toBe(401);
    const cancelled = await http.delete(`/tracks/resume/${uploadId}`, { token: user.accessToken });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.message).toEqual(expect.any(String));
    expect(await readdir(path.join(server.dataDir, 'files', 'uploads', uploadId)).catch(() => 'gone')).toBe('gone');
    expect((await http.get(`/tracks/resume/${uploadId}`, { token: user.accessToken })).status).toBe(404);
    expect((await http.delete(`/tracks/resume/${uploadId}`, { token: user.accessToken })).status).toBe(404);
    const after = await http.get('/tracks/quota/me', { token: user.accessToken });
    expect(after.body.data.quota).toMatchObject({ reserved_bytes: 0, remaining_bytes: 5_000_000 });
    // the freed space can be reserved again
    expect((await initiate(user.accessToken, 4_000_000, 4000)).status).toBe(200);
  });

  it('at most 20 chunked sessions are open per user: the 21st is 400 LIMIT_REACHED until one is cancelled', async () => {
    const user = await signedInUser(server);
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) {
      const reply = await initiate(user.accessToken, 100, 1);
      expect(reply.status).toBe(200);
      ids.push(reply.body.data.upload_id);
    }
    const over = await initiate(user.accessToken, 100, 1);
    expect(over.status).toBe(400);
    expect(over.body.error.code).toBe('LIMIT_REACHED');
    // another user is not affected
    const other = await signedInUser(server);
    expect((await initiate(other.accessToken, 100, 1)).status).toBe(200);
    await http.delete(`/tracks/resume/${ids[0]}`, { token: user.accessToken });
    expect((await initiate(user.accessToken, 100, 1)).status).toBe(200);
  });
});

describe('rejected uploads leave nothing behind', () => {
  it('no empty tracks/<id>/ or staging folders after refused uploads and chunks', async () => {
    const user = await signedInUser(server);
    const notAudio = await uploadForm(
      server.baseUrl,
      user.accessToken,
      audioForm(Buffer.from('plain words, not audio at all'), 'a.mp3'),
    );
    expect(notAudio.status).toBe(400);
    const overQuota = await uploadFormStreamed(
      server.baseUrl,
      user.accessToken,
      audioForm(await makeAudio('wav', { seconds: 60 }), 'big.wav'),
    );
    expect(overQuota.status).toBe(403);
    const session = (await initiate(user.accessToken, 1000, 1)).body.data;
    const badChunk = new FormData();
    for (const [name, value] of Object.entries({
      upload_id: session.upload_id,
      chunk_number: '7',
      total_chunks: '1',
      total_size: '1000',
      filename: 'x.wav',
    }))
      badChunk.append(name, value);
    badChunk.append('chunk', new Blob([new Uint8Array(Buffer.alloc(500, 1))]), 'blob');
    expect((await uploadForm(server.baseUrl, user.accessToken, badChunk, '/api/v1/tracks/chunk')).status).toBe(400);

    const { files, emptyFolders } = await storageEntries();
    expect(emptyFolders.filter((folder) => /^(tracks|staging)[/\\]./.test(folder))).toEqual([]);
    expect(files.filter((file) => /^(tracks|staging)[/\\]/.test(file))).toEqual([]);
  });
});

import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { login, signedInUser } from '../support/accounts.js';
import { makeAudio, md5, uploadForm } from '../support/audio.js';
import { idleUploadSession, strandedStorageIntent } from '../support/backdate.js';
import { runJob } from '../support/jobs.js';
import { intentKeys, newIntents } from '../support/storage-intents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let http: ReturnType<typeof api>;
let audio: Buffer;

beforeAll(async () => {
  server = await startTestServer({ UPLOAD_CHUNK_MAX_BYTES: '65536', QUOTA_BYTES: '5000000' });
  http = api(server.baseUrl);
  audio = await makeAudio('wav', { seconds: 2, title: 'Chunky' });
});
afterAll(async () => {
  await server?.close();
});

const CHUNK = 40_000;
const split = (bytes: Buffer) =>
  Array.from({ length: Math.ceil(bytes.length / CHUNK) }, (_, n) => bytes.subarray(n * CHUNK, (n + 1) * CHUNK));

function chunkForm(
  fields: { upload_id: string; chunk_number: number; total_chunks: number; total_size: number; filename: string },
  chunk: Buffer,
  fileFirst = false,
) {
  const form = new FormData();
  if (fileFirst) form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  if (!fileFirst) form.append('chunk', new Blob([new Uint8Array(chunk)]), 'blob');
  return form;
}

async function initiate(target: TestServer, token: string, bytes: Buffer, filename = 'song.wav') {
  const total_chunks = Math.ceil(bytes.length / CHUNK);
  const reply = await api(target.baseUrl).post('/tracks/initiate', {
    token,
    body: { filename, total_chunks, total_size: bytes.length },
  });
  expect(reply.status).toBe(200);
  return { upload_id: reply.body.data.upload_id as string, total_chunks, total_size: bytes.length, filename, reply };
}

const send = (
  target: TestServer,
  token: string,
  session: Awaited<ReturnType<typeof initiate>>,
  n: number,
  chunk: Buffer,
) => uploadForm(target.baseUrl, token, chunkForm({ ...session, chunk_number: n }, chunk), '/api/v1/tracks/chunk');

describe('chunked upload', () => {
  it('initiate → chunks in any order, re-sent → resume → complete gives the track and the md5', async () => {
    const user = await signedInUser(server);
    const session = await initiate(server, user.accessToken, audio);
    expect(session.reply.body.data).toMatchObject({
      chunk_size_limit: 65536,
      expires_at: expect.any(String),
      message: expect.stringContaining('0'),
    });
    const chunks = split(audio);
    expect(chunks.length).toBeGreaterThan(3);

    const order = chunks.map((_, n) => n).reverse();
    let last;
    for (const n of order) last = await send(server, user.accessToken, session, n, chunks[n]!);
    expect(last!.status).toBe(200);
    expect(last!.body.data).toMatchObject({
      upload_id: session.upload_id,
      chunk_number: 0,
      received_chunks: chunks.length,
      progress: 100,
    });

    // re-sending a chunk replaces it and does not count twice
    const again = await send(server, user.accessToken, session, 1, chunks[1]!);
    expect(again.body.data.received_chunks).toBe(chunks.length);

    const resume = await http.get(`/tracks/resume/${session.upload_id}`, { token: user.accessToken });
    expect(resume.body.data).toMatchObject({
      upload_id: session.upload_id,
      chunks_received: chunks.length,
      received_chunk_numbers: chunks.map((_, n) => n),
      total_chunks: chunks.length,
      total_size: audio.length,
    });

    const complete = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(complete.status).toBe(201);
    expect(complete.body.data.md5).toBe(md5(audio));
    expect(complete.body.data.track).toMatchObject({
      title: 'Chunky',
      format: 'wav',
      file_size: audio.length,
      duration: 2,
    });

    const streamed = Buffer.from(
      await (await fetch(`${server.baseUrl}/api/v1/tracks/${complete.body.data.track.id}/stream`)).arrayBuffer(),
    );
    expect(streamed.equals(audio)).toBe(true);
    // the session and its chunks are gone
    expect((await http.get(`/tracks/resume/${session.upload_id}`, { token: user.accessToken })).status).toBe(404);
    expect(await readdir(path.join(server.dataDir, 'files', 'uploads', session.upload_id)).catch(() => [])).toEqual([]);
  });

  it('chunks sent in order, then one replaced with other bytes: the md5 and the stored file are those of the bytes last sent', async () => {
    const user = await signedInUser(server);
    const chunks = split(audio);
    // in order and left alone: the md5 computed as the chunks came
    const plain = await initiate(server, user.accessToken, audio);
    for (const [n, chunk] of chunks.entries())
      expect((await send(server, user.accessToken, plain, n, chunk)).status).toBe(200);
    const done = await http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: plain.upload_id } });
    expect(done.body.data.md5).toBe(md5(audio));

    const session = await initiate(server, user.accessToken, audio);
    for (const [n, chunk] of chunks.entries())
      expect((await send(server, user.accessToken, session, n, chunk)).status).toBe(200);
    const changed = Buffer.from(chunks[1]!).fill(7);
    expect((await send(server, user.accessToken, session, 1, changed)).status).toBe(200);
    const expected = Buffer.concat([chunks[0]!, changed, ...chunks.slice(2)]);

    const complete = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(complete.status).toBe(201);
    expect(complete.body.data.md5).toBe(md5(expected));
    const streamed = Buffer.from(
      await (await fetch(`${server.baseUrl}/api/v1/tracks/${complete.body.data.track.id}/stream`)).arrayBuffer(),
    );
    expect(streamed.equals(expected)).toBe(true);
  });

  it('a missing chunk is 400 and the session stays resumable', async () => {
    const user = await signedInUser(server);
    const session = await initiate(server, user.accessToken, audio);
    const chunks = split(audio);
    for (let n = 0; n < chunks.length; n++) if (n !== 2) await send(server, user.accessToken, session, n, chunks[n]!);
    const early = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('UPLOAD_INCOMPLETE');
    expect(early.body.error.details).toEqual([{ field: 'chunk_number', message: 'missing', value: '2' }]);

    const resume = await http.get(`/tracks/resume/${session.upload_id}`, { token: user.accessToken });
    expect(resume.body.data.received_chunk_numbers).not.toContain(2);
    await send(server, user.accessToken, session, 2, chunks[2]!);
    const done = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(done.status).toBe(201);
  });

  it('chunks that do not add up to total_size are 400 SIZE_MISMATCH, and resumable', async () => {
    const user = await signedInUser(server);
    const session = await initiate(server, user.accessToken, audio);
    const chunks = split(audio);
    for (let n = 0; n < chunks.length; n++)
      await send(server, user.accessToken, session, n, n === 1 ? chunks[1]!.subarray(0, 100) : chunks[n]!);
    const mismatch = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('SIZE_MISMATCH');
    await send(server, user.accessToken, session, 1, chunks[1]!);
    expect(
      (await http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: session.upload_id } })).status,
    ).toBe(201);
  });

  it('refuses bad chunks: another user’s session, out-of-range number, too large, overflowing total_size', async () => {
    const user = await signedInUser(server);
    const other = await signedInUser(server);
    const session = await initiate(server, user.accessToken, audio);
    const chunk = split(audio)[0]!;

    expect((await send(server, other.accessToken, session, 0, chunk)).status).toBe(404);
    expect((await http.get(`/tracks/resume/${session.upload_id}`, { token: other.accessToken })).status).toBe(404);
    expect(
      (await http.post('/tracks/complete', { token: other.accessToken, body: { upload_id: session.upload_id } }))
        .status,
    ).toBe(404);

    // the fields may come after the chunk
    const fileFirst = await uploadForm(
      server.baseUrl,
      user.accessToken,
      chunkForm({ ...session, chunk_number: 0 }, chunk, true),
      '/api/v1/tracks/chunk',
    );
    expect(fileFirst.status).toBe(200);

    const outOfRange = await send(server, user.accessToken, session, session.total_chunks, chunk);
    expect(outOfRange.status).toBe(400);
    const wrongTotal = await uploadForm(
      server.baseUrl,
      user.accessToken,
      chunkForm({ ...session, total_size: 5, chunk_number: 0 }, chunk),
      '/api/v1/tracks/chunk',
    );
    expect(wrongTotal.status).toBe(400);

    const tooLarge = await send(server, user.accessToken, session, 0, Buffer.alloc(65_537, 1));
    expect(tooLarge.status).toBe(413);
    const exactlyTheLimit = await initiate(server, user.accessToken, Buffer.alloc(65_536), 'limit.wav');
    expect((await send(server, user.accessToken, exactlyTheLimit, 0, Buffer.alloc(65_536, 1))).status).toBe(200);

    const tiny = await initiate(server, user.accessToken, Buffer.alloc(100), 'tiny.wav');
    const overflow = await send(server, user.accessToken, tiny, 0, Buffer.alloc(101, 1));
    expect(overflow.status).toBe(400);

    const unknown = await http.get('/tracks/resume/00000000-0000-4000-8000-000000000000', { token: user.accessToken });
    expect(unknown.status).toBe(404);
    expect((await http.get('/tracks/resume/nope', { token: user.accessToken })).status).toBe(400);
  });

  it('initiate validates counts, sizes and the quota', async () => {
    const user = await signedInUser(server);
    for (const body of [
      { filename: 'a.wav', total_chunks: 0, total_size: 10 },
      { filename: 'a.wav', total_chunks: 10_001, total_size: 10_001 },
      { filename: 'a.wav', total_chunks: 3, total_size: 2 },
      { filename: '', total_chunks: 1, total_size: 10 },
    ]) {
      expect(
        (await http.post('/tracks/initiate', { token: user.accessToken, body })).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    const tooBigChunks = await http.post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 'a.wav', total_chunks: 1, total_size: 100_000 },
    });
    expect(tooBigChunks.status).toBe(413);
    const overQuota = await http.post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 'a.wav', total_chunks: 100, total_size: 6_000_000 },
    });
    expect(overQuota.status).toBe(403);
    expect(overQuota.body.error.code).toBe('QUOTA_EXCEEDED');
    // sessions reserve their declared size: two that together pass the quota cannot both start
    const first = await http.post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 'a.wav', total_chunks: 60, total_size: 3_000_000 },
    });
    expect(first.status).toBe(200);
    const second = await http.post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 'b.wav', total_chunks: 60, total_size: 3_000_000 },
    });
    expect(second.status).toBe(403);
  });

  it('assembled content that is not audio is 400 INVALID_AUDIO and leaves no file', async () => {
    const user = await signedInUser(server);
    const intentsBefore = await intentKeys(server);
    const junk = Buffer.alloc(1000, 7);
    const session = await initiate(server, user.accessToken, junk, 'junk.mp3');
    await send(server, user.accessToken, session, 0, junk);
    const reply = await http.post('/tracks/complete', {
      token: user.accessToken,
      body: { upload_id: session.upload_id },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_AUDIO');
    expect(await readdir(path.join(server.dataDir, 'files', 'tracks')).catch(() => [])).not.toContain(
      expect.stringMatching(/-/),
    );
    expect(await newIntents(server, intentsBefore)).toEqual([]);
  });

  it('idle sessions expire after 24 h and the cleanup removes their chunks', async () => {
    const user = await signedInUser(server);
    const session = await initiate(server, user.accessToken, audio);
    await send(server, user.accessToken, session, 0, split(audio)[0]!);
    const chunkDir = path.join(server.dataDir, 'files', 'uploads', session.upload_id);
    expect(await readdir(chunkDir)).toEqual(['0']);
    await idleUploadSession(server, session.upload_id, 25);
    expect((await http.get(`/tracks/resume/${session.upload_id}`, { token: user.accessToken })).status).toBe(404);
    const result = await runJob<{ sessions: number; objects: number }>(server, 'uploads.cleanup');
    expect(result.sessions).toBeGreaterThanOrEqual(1);
    expect(await readdir(chunkDir).catch(() => 'gone')).toBe('gone');
  });

  it('the cleanup removes the files of uploads that crashed', async () => {
    const key = 'tracks/11111111-1111-4111-8111-111111111111/original';
    const { Readable } = await import('node:stream');
    await server.riff.storage.put(key, Readable.from([Buffer.from('half an upload')]));
    await strandedStorageIntent(server, key, 25);
    const result = await runJob<{ sessions: number; objects: number }>(server, 'uploads.cleanup');
    expect(result.objects).toBe(1);
    expect(await server.riff.storage.size(key)).toBeUndefined();
  });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))('sessions survive a restart', () => {
  it('chunks sent before a restart complete after it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-chunks-'));
    try {
      const first = await startTestServer({ DATA_DIR: dataDir });
      const user = await signedInUser(first);
      const session = await initiate(first, user.accessToken, audio);
      const chunks = split(audio);
      await send(first, user.accessToken, session, 0, chunks[0]!);
      await first.close();
      const second = await startTestServer({ DATA_DIR: dataDir });
      try {
        const { accessToken } = await login(second, user);
        for (let n = 1; n < chunks.length; n++) await send(second, accessToken, session, n, chunks[n]!);
        const done = await api(second.baseUrl).post('/tracks/complete', {
          token: accessToken,
          body: { upload_id: session.upload_id },
        });
        expect(done.status).toBe(201);
        expect(done.body.data.md5).toBe(md5(audio));
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // two servers start one after the other (each migrates its embedded database, each behind its Prism gate)
  }, 90_000);
});

describe.runIf(Boolean(process.env.DATABASE_URL))('two instances', () => {
  it('consecutive chunks may reach different instances sharing the database and storage', async () => {
    const shared = await mkdtemp(path.join(tmpdir(), 'riff-shared-files-'));
    const a = await startTestServer({ DATA_DIR: shared });
    const b = await startTestServer({ DATA_DIR: shared });
    try {
      const user = await signedInUser(a);
      const session = await initiate(a, user.accessToken, audio);
      const chunks = split(audio);
      for (let n = 0; n < chunks.length; n++) await send(n % 2 === 0 ? a : b, user.accessToken, session, n, chunks[n]!);
      const done = await api(b.baseUrl).post('/tracks/complete', {
        token: user.accessToken,
        body: { upload_id: session.upload_id },
      });
      expect(done.status).toBe(201);
      expect(done.body.data.md5).toBe(md5(audio));
    } finally {
      await a.close();
      await b.close();
      await rm(shared, { recursive: true, force: true });
    }
  });
});

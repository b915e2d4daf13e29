/**
 * kill -9 while a chunk of a resumable upload is being written: a new server process on the same
 * DATA_DIR and database shows the chunks received before the kill (not the cut one), takes the
 * rest, and assembles a file whose md5 and streamed bytes are the original's; nothing half-written
 * stays in storage once the cleanup has run. It runs on its own PostgreSQL cluster: the cleanup is
 * run 25 hours ahead, which on the shared database would expire other test files' sessions.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRiff } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { signedInOverHttp } from '../support/accounts.js';
import { makeAudio, md5, uploadForm } from '../support/audio.js';
import { api } from '../support/http.js';
import { runJob } from '../support/jobs.js';
import {
  createPgCluster,
  faultSuiteEnabled,
  filesUnder,
  freePort,
  startServerProcess,
  waitFor,
  type PgCluster,
} from './fault-services.js';

const CHUNK = 32 * 1024;

describe.skipIf(!faultSuiteEnabled)('kill -9 in the middle of a chunk', () => {
  let dataDir: string;
  let cluster: PgCluster;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.createDatabase('riff');
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-fault-kill-'));
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await cluster?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  const startServer = (port: number) =>
    startServerProcess(
      port,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: cluster.url('riff'),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MINUTE: '1000000',
        UPLOAD_CHUNK_MAX_BYTES: String(CHUNK),
      },
      children,
    );

  it('resumes on a new process: the cut chunk is missing, the rest arrives, md5 and streamed bytes are the file’s, no .partial left', {
    timeout: 180_000,
  }, async () => {
    const audio = await makeAudio('wav', { seconds: 3, title: 'Killed Midway' });
    const chunks = Array.from({ length: Math.ceil(audio.length / CHUNK) }, (_, n) =>
      audio.subarray(n * CHUNK, (n + 1) * CHUNK),
    );
    expect(chunks.length).toBeGreaterThan(5);
    const cut = 3;

    const port = await freePort();
    const first = await startServer(port);
    const user = await signedInOverHttp({ baseUrl: first.baseUrl, outboxDir: path.join(dataDir, 'mail') });
    const initiated = await api(first.baseUrl).post('/tracks/initiate', {
      token: user.accessToken,
      body: { filename: 'killed.wav', total_chunks: chunks.length, total_size: audio.length },
    });
    expect(initiated.status).toBe(200);
    const uploadId: string = initiated.body.data.upload_id;
    const fields = {
      upload_id: uploadId,
      total_chunks: chunks.length,
      total_size: audio.length,
      filename: 'killed.wav',
    };
    const sendChunk = (baseUrl: string, n: number) => {
      const form = new FormData();
      for (const [name, value] of Object.entries({ ...fields, chunk_number: n })) form.append(name, String(value));
      form.append('chunk', new Blob([new Uint8Array(chunks[n]!)]), 'blob');
      return uploadForm(baseUrl, user.accessToken, form, '/api/v1/tracks/chunk');
    };
    for (let n = 0; n < cut; n++) expect((await sendChunk(first.baseUrl, n)).status).toBe(200);

    // chunk `cut` goes out by hand: its fields and half its bytes, then the client waits
    const boundary = 'riffkillmidchunk';
    const head =
      Object.entries({ ...fields, chunk_number: cut })
        .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
        .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
    const tail = `\r\n--${boundary}--\r\n`;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      `POST /api/v1/tracks/chunk HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${Buffer.byteLength(head) + chunks[cut]!.length + tail.length}\r\n\r\n${head}`,
    );
    socket.write(chunks[cut]!.subarray(0, CHUNK / 2));
    // the server is writing that chunk: its temporary file is there
    const filesDir = path.join(dataDir, 'files');
    const partials = async () => (await filesUnder(filesDir)).filter((file) => file.endsWith('.partial'));
    const writing = await waitFor('the cut chunk being written', 30_000, async () => {
      const partial = await partials();
      return partial.length > 0 ? partial : undefined;
    });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    socket.destroy();
    // kill -9 leaves the half-written chunk behind: what follows must neither count it nor keep it
    expect(writing.length).toBe(1);
    expect(await partials()).toEqual(writing);

    const second = await startServer(await freePort());
    const http = api(second.baseUrl);
    // the access token signed by the first process still works: the key lives in DATA_DIR
    const resumed = await http.get(`/tracks/resume/${uploadId}`, { token: user.accessToken });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({
      upload_id: uploadId,
      chunks_received: cut,
      received_chunk_numbers: Array.from({ length: cut }, (_, n) => n),
      total_chunks: chunks.length,
      total_size: audio.length,
    });
    const early = await http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: uploadId } });
    expect(early.status).toBe(400);
    expect(early.body.error.code).toBe('UPLOAD_INCOMPLETE');

    for (let n = cut; n < chunks.length; n++) expect((await sendChunk(second.baseUrl, n)).status).toBe(200);
    const complete = await http.post('/tracks/complete', { token: user.accessToken, body: { upload_id: uploadId } });
    expect(complete.status, complete.text).toBe(201);
    expect(complete.body.data.md5).toBe(md5(audio));
    expect(complete.body.data.track).toMatchObject({ title: 'Killed Midway', format: 'wav', file_size: audio.length });

    const streamed = await fetch(`${second.baseUrl}/api/v1/tracks/${complete.body.data.track.id}/stream`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(streamed.status).toBe(200);
    expect(md5(Buffer.from(await streamed.arrayBuffer()))).toBe(md5(audio));
    expect((await http.get(`/tracks/resume/${uploadId}`, { token: user.accessToken })).status).toBe(404);

    second.child.kill('SIGTERM');
    await second.exited;

    // the cut chunk's temporary file outlives the restart (its storage intent is younger than a day) ...
    expect(await partials()).toEqual(writing);
    // ... until the cleanup runs past the intent's 24 hours
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const config = loadConfig({
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url('riff'),
      LOG_LEVEL: 'silent',
      HOST: '127.0.0.1',
      PORT: '0',
    });
    const riff = await createRiff(config, { clock: { now: () => later } });
    try {
      const swept = await runJob<{ sessions: number; objects: number }>({ riff }, 'uploads.cleanup');
      expect(swept.objects).toBeGreaterThanOrEqual(1);
    } finally {
      await riff.jobs.stop(5000);
      await riff.close();
    }
    expect(await partials()).toEqual([]);
    // the track is intact and nothing of the session or its staging is left in storage
    const files = await filesUnder(filesDir);
    expect(files.filter((file) => file.startsWith('uploads') || file.startsWith('staging'))).toEqual([]);
    expect(files.length).toBeGreaterThanOrEqual(1);
  });
});

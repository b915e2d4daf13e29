import { request as httpRequest } from 'node:http';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { uploadForm } from '../support/audio.js';
import { collect, openSocket, parseRawReply } from '../support/raw-http.js';
import { intentKeys, newIntents } from '../support/storage-intents.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const CHUNK_LIMIT = 10_000;
const DRAIN_BYTES = 3 * 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  // raw sockets and Node's own client talk to the server directly; a small minimum rate and grace keep the slow-body test short
  server = await startTestServer({
    RIFF_TEST_PRISM_PROXY: '0',
    UPLOAD_CHUNK_MAX_BYTES: String(CHUNK_LIMIT),
    REQUEST_DRAIN_MAX_BYTES: String(DRAIN_BYTES),
    MIN_REQUEST_BODY_RATE: '1000',
    MIN_REQUEST_BODY_RATE_GRACE_MS: '500',
  });
});
afterAll(async () => {
  await server?.close();
});

const BOUNDARY = 'riffboundary';

async function startSession(token: string, totalSize: number, totalChunks: number) {
  const reply = await fetch(`${server.directUrl}/api/v1/tracks/initiate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filename: 'x.wav', total_chunks: totalChunks, total_size: totalSize }),
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as any).data as { upload_id: string };
}

/** The multipart framing of a chunk: its fields, then the file part's head; the file bytes and `tail` follow. */
function chunkForm(uploadId: string, totalSize: number, totalChunks: number) {
  const fields = {
    upload_id: uploadId,
    chunk_number: '0',
    total_chunks: String(totalChunks),
    total_size: String(totalSize),
    filename: 'x.wav',
  };
  const head =
    Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="chunk"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { head: Buffer.from(head), tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`) };
}

async function stagingFiles(): Promise<string[]> {
  const root = path.join(server.dataDir, 'files');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('media/'));
}

describe('a body refused before it is read whole', () => {
  it('an over-limit chunk: Node’s own client sending a large body reads the 413 envelope whole, with no broken pipe before it', async () => {
    const user = await signedInUser(server);
    const session = await startSession(user.accessToken, 20_000, 2);
    const { head, tail } = chunkForm(session.upload_id, 20_000, 2);
    const body = Buffer.concat([head, Buffer.alloc(16 * 1024 * 1024, 7), tail]);
    const events: string[] = [];
    const outcome = await new Promise<{ status?: number; text: string }>((resolve) => {
      const req = httpRequest(`${server.directUrl}/api/v1/tracks/chunk`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.accessToken}`,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': body.length,
        },
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        events.push(`error ${error.code ?? error.message}`);
        resolve({ text: '' });
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (piece: string) => (text += piece));
        res.on('end', () => {
          events.push('response end');
          resolve({ status: res.statusCode, text });
        });
      });
      req.end(body);
    });
    expect(events[0]).toBe('response end');
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.text)).toMatchObject({
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining(String(CHUNK_LIMIT)) },
    });
  });

  it('the same over a raw socket: every byte is taken, the 413 comes with Connection: close, and the server closes once the body is in', async () => {
    const user = await signedInUser(server);
    const session = await startSession(user.accessToken, 20_000, 2);
    const { head, tail } = chunkForm(session.upload_id, 20_000, 2);
    const body = Buffer.concat([head, Buffer.alloc(200_000, 7), tail]);
    const socket = await openSocket(server.directUrl);
    const reply = collect(socket, 10_000);
    const answered = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.write(
      `POST /api/v1/tracks/chunk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    const first = head.length + CHUNK_LIMIT + 1000;
    socket.write(body.subarray(0, first));
    await answered;
    const errors: Error[] = [];
    for (let offset = first; offset < body.length && errors.length === 0; offset += 16 * 1024) {
      await new Promise<void>((resolve) =>
        socket.write(body.subarray(offset, offset + 16 * 1024), (error) => (error && errors.push(error), resolve())),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const parsed = parseRawReply(await reply);
    expect(errors).toEqual([]);
    expect(parsed.status).toBe(413);
    expect(parsed.headers['connection']).toBe('close');
    expect(parsed.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(closed).toBe(true);
  });

  it('a JSON body declared far larger than its limit is answered 413 at once; only a bounded part of the rest is read, then the connection is cut', async () => {
    const socket = await openSocket(server.directUrl);
    const reply = collect(socket, 20_000);
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.on('error', () => undefined);
    socket.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"email":"',
    );
    let sent = 0;
    const piece = Buffer.alloc(64 * 1024, 'a');
    // keep sending (at most 20 MiB) while the server takes it
    while (!closed && sent < 20 * 1024 * 1024) {
      const error = await new Promise<Error | undefined>((resolve) => {
        const flushed = socket.write(piece, (failure) => (flushed ? resolve(failure ?? undefined) : undefined));
        if (!flushed) {
          const timer = setTimeout(() => resolve(new Error('the server stopped reading')), 5_000);
          socket.once('drain', () => (clearTimeout(timer), resolve(undefined)));
          socket.once('close', () => (clearTimeout(timer), resolve(undefined)));
        }
      });
      if (error) break;
      sent += piece.length;
    }
    const parsed = parseRawReply(await reply);
    expect(parsed.status).toBe(413);
    expect(parsed.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(closed).toBe(true);
    // the server stopped reading somewhere past the drain bound, far from the 50 MB announced
    expect(sent).toBeLessThan(DRAIN_BYTES + 8 * 1024 * 1024);
  });
});

describe('a body that trickles in', () => {
  it('is cut with 408 REQUEST_TIMEOUT once it falls under the minimum rate after the grace period; nothing of it stays', async () => {
    const user = await signedInUser(server);
    const session = await startSession(user.accessToken, 20_000, 2);
    const intentsBefore = await intentKeys(server);
    const filesBefore = await stagingFiles();
    const { head } = chunkForm(session.upload_id, 20_000, 2);
    const socket = await openSocket(server.directUrl);
    const reply = collect(socket, 30_000);
    let closed = false;
    socket.once('close', () => (closed = true));
    socket.on('error', () => undefined);
    const started = Date.now();
    socket.write(
      `POST /api/v1/tracks/chunk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${head.length + 9000}\r\n\r\n`,
    );
    socket.write(head);
    // one byte every 100 ms: 10 bytes a second against a minimum of 1000 (bounded: the server must cut first)
    for (let i = 0; i < 200 && !closed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (!closed && socket.writable) socket.write('x');
    }
    const parsed = parseRawReply(await reply);
    const elapsed = Date.now() - started;
    expect(parsed.status).toBe(408);
    expect(parsed.body).toMatchObject({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', request_id: parsed.headers['x-request-id'] },
    });
    expect(elapsed).toBeLessThan(10_000);

    // nothing stored: no staging file, no storage intent, no chunk in the session
    const deadline = Date.now() + 10_000;
    while (
      Date.now() < deadline &&
      ((await newIntents(server, intentsBefore)).length > 0 || (await stagingFiles()).length > filesBefore.length)
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await newIntents(server, intentsBefore)).toEqual([]);
    expect(await stagingFiles()).toEqual(filesBefore);
    const resume = await fetch(`${server.directUrl}/api/v1/tracks/resume/${session.upload_id}`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(((await resume.json()) as any).data).toMatchObject({ chunks_received: 0, received_chunk_numbers: [] });
  });

  it('a body sent at an ordinary pace is not cut, even when it takes longer than the grace period', async () => {
    const user = await signedInUser(server);
    const session = await startSession(user.accessToken, 20_000, 2);
    const { head, tail } = chunkForm(session.upload_id, 20_000, 2);
    const body = Buffer.concat([head, Buffer.alloc(9_000, 3), tail]);
    const socket = await openSocket(server.directUrl);
    const reply = collect(socket, 10_000);
    socket.write(
      `POST /api/v1/tracks/chunk HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.accessToken}\r\nConnection: close\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    // about 4 KB a second for a little over 2 s
    for (let offset = 0; offset < body.length; offset += 400) {
      socket.write(body.subarray(offset, offset + 400));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const parsed = parseRawReply(await reply);
    expect([parsed.status, parsed.text]).toEqual([200, expect.any(String)]);
    expect(parsed.body.data).toMatchObject({ chunk_number: 0, received_chunks: 1 });
    // and the form helpers' path works as before
    expect((await uploadForm(server.directUrl, user.accessToken, new FormData(), '/api/v1/tracks/chunk')).status).toBe(
      400,
    );
  });
});

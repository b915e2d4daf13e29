import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from '../../server/src/platform/http/http-server.js';
import { signedInUser } from '../support/accounts.js';
import { collect, openSocket, parseRawReply, rawRequest, type RawReply } from '../support/raw-http.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer({ RIFF_TEST_PRISM_PROXY: '0' });

function expectEnvelope(reply: RawReply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toMatch(/^application\/json/);
  expect(reply.body).toEqual({
    success: false,
    error: { code, message: expect.any(String), request_id: expect.any(String) },
  });
  expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
}

// Replies Node's HTTP parser makes before the app sees a request are enveloped too (ADDENDUM "Envelope, errors, formats").
describe("Node's own replies", () => {
  it('oversized headers are 431 HEADERS_TOO_LARGE in the envelope, with a request id', async () => {
    const reply = await rawRequest(
      suite.server.directUrl,
      `GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expectEnvelope(reply, 431, 'HEADERS_TOO_LARGE');
  });

  it('a URL too long is 414 URI_TOO_LONG', async () => {
    const reply = await rawRequest(
      suite.server.directUrl,
      `GET /api/v1/users?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expectEnvelope(reply, 414, 'URI_TOO_LONG');
  });

  it('conflicting length headers are 400 BAD_REQUEST', async () => {
    const both = await rawRequest(
      suite.server.directUrl,
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    expectEnvelope(both, 400, 'BAD_REQUEST');
    const twoLengths = await rawRequest(
      suite.server.directUrl,
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
    );
    expectEnvelope(twoLengths, 400, 'BAD_REQUEST');
  });

  it('a request that is not HTTP is 400 BAD_REQUEST in the envelope', async () => {
    expectEnvelope(await rawRequest(suite.server.directUrl, 'HELLO\r\n\r\n'), 400, 'BAD_REQUEST');
  });

  it('the server keeps answering after all of them', async () => {
    const reply = await fetch(`${suite.server.directUrl}/healthz`);
    expect(reply.status).toBe(200);
  });
});

// The same server factory with its limits shortened (the real 10 s and 30 s run in tests/faults/hostile-clients.test.ts).
describe('clients too slow', () => {
  it('headers that do not finish in time and a body that stops arriving get 408 REQUEST_TIMEOUT in the envelope', async () => {
    const server = createHttpServer(
      (req, res) => {
        res.setHeader('X-Request-Id', 'slow-body-request');
        req.resume();
        req.on('end', () => res.end('done'));
      },
      { headersTimeoutMs: 1_000, idleTimeoutMs: 1_500 },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const slowHeaders = await openSocket(url);
      const headersReply = collect(slowHeaders, 10_000);
      slowHeaders.write('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a');
      const stalledBody = await openSocket(url);
      const bodyReply = collect(stalledBody, 10_000);
      stalledBody.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');

      expectEnvelope(parseRawReply(await headersReply), 408, 'REQUEST_TIMEOUT');
      const body = parseRawReply(await bodyReply);
      expectEnvelope(body, 408, 'REQUEST_TIMEOUT');
      // the request id the app gave the request is the one in the reply
      expect(body.body.error.request_id).toBe('slow-body-request');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('an upload whose body stalls', () => {
  it('gets 408 and leaves no storage intent, as an aborted one', async () => {
    const user = await signedInUser(suite.server);
    const started = new Date();
    // the same app behind a server with a short idle limit
    const server = createHttpServer(suite.server.riff.app, { idleTimeoutMs: 1_000 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const socket = await openSocket(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      const reply = collect(socket, 10_000);
      const head =
        '--b\r\nContent-Disposition: form-data; name="file"; filename="stall.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF';
      socket.write(
        `POST /api/v1/tracks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.accessToken}\r\n` +
          `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n${head}`,
      );
      const answered = parseRawReply(await reply);
      expectEnvelope(answered, 408, 'REQUEST_TIMEOUT');
      const db = suite.server.riff.database.db;
      // intents made since the test began (on a shared database other files' uploads finish within the deadline too)
      const recentIntents = () =>
        db.selectFrom('storage_intents').select('key').where('created_at', '>=', started).execute();
      const deadline = Date.now() + 5_000;
      while ((await recentIntents()).length > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(await db.selectFrom('tracks').select('id').where('creator_id', '=', user.id).execute()).toEqual([]);
      expect(await recentIntents()).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect, openSocket, parseRawReply, rawRequest } from '../support/raw-http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { faultSuiteEnabled, openFdCount, waitFor } from './fault-services.js';

// Raw sockets only (no fetch pool): every descriptor in this process is then the server's or a test socket.
describe.skipIf(!faultSuiteEnabled)('hostile clients', () => {
  let server: TestServer;
  let baseline: number;

  beforeAll(async () => {
    // no minimum body rate here: the stalled bodies below test the idle cut (the minimum rate has its own test, request-bodies.test.ts)
    server = await startTestServer({
      DATABASE_URL: '',
      REDIS_URL: '',
      RIFF_TEST_PRISM_PROXY: '0',
      MIN_REQUEST_BODY_RATE: '0',
    });
    expect(
      (await rawRequest(server.directUrl, 'GET /api/v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status,
    ).toBe(200);
    baseline = await openFdCount();
  });

  afterAll(async () => {
    await server?.close();
  });

  const backToBaseline = () =>
    waitFor(
      'descriptors back to the baseline',
      10_000,
      async () => ((await openFdCount()) <= baseline ? true : undefined),
      100,
    );

  it('slow-loris headers are cut with 408 after 10 s, a stalled body after 30 s; no descriptor is left', {
    timeout: 60_000,
  }, async () => {
    const trickle = async () => {
      const socket = await openSocket(server.directUrl);
      const reply = collect(socket, 50_000);
      socket.write('GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      let closed = false;
      socket.once('close', () => (closed = true));
      // a header byte every half second, never finishing the headers (bounded: the server must cut first)
      for (let i = 0; i < 60 && !closed; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        if (!closed && socket.writable) socket.write('a');
      }
      return { reply: parseRawReply(await reply), closedByServer: closed };
    };
    const stalledBody = async () => {
      const socket = await openSocket(server.directUrl);
      const reply = collect(socket, 50_000);
      socket.write(
        'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      );
      return { reply: parseRawReply(await reply) };
    };
    const started = Date.now();
    const slowHeaders = Array.from({ length: 30 }, () =>
      trickle().then((result) => ({ ...result, ms: Date.now() - started })),
    );
    const slowBodies = Array.from({ length: 20 }, () =>
      stalledBody().then((result) => ({ ...result, ms: Date.now() - started })),
    );
    const headerResults = await Promise.all(slowHeaders);
    const bodyResults = await Promise.all(slowBodies);
    for (const { reply, closedByServer, ms } of headerResults) {
      expect(closedByServer).toBe(true);
      expect(reply.status).toBe(408);
      expect(reply.body.error.code).toBe('REQUEST_TIMEOUT');
      expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
      expect(ms).toBeGreaterThanOrEqual(9_500);
      expect(ms).toBeLessThan(16_000);
    }
    for (const { reply, ms } of bodyResults) {
      expect(reply.status).toBe(408);
      expect(reply.body.error.code).toBe('REQUEST_TIMEOUT');
      expect(reply.headers['x-request-id']).toBe(reply.body.error.request_id);
      expect(ms).toBeGreaterThanOrEqual(29_500);
      expect(ms).toBeLessThan(45_000);
    }
    await backToBaseline();
  });

  it('a storm of clients that hang up mid-request leaves no descriptor open and the service answering', {
    timeout: 60_000,
  }, async () => {
    const abortAfter = async (bytes: string, reset: boolean) => {
      const socket: Socket = await openSocket(server.directUrl);
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.write(bytes, () => resolve()));
      if (reset) socket.resetAndDestroy();
      else socket.destroy();
    };
    const kinds = [
      'GET /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/users HTTP/1.1\r\nHost: x\r\n',
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a',
      'POST /api/v1/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"ema\r\n',
    ];
    for (let round = 0; round < 5; round++) {
      await Promise.all(Array.from({ length: 80 }, (_, i) => abortAfter(kinds[i % kinds.length]!, i % 3 === 0)));
    }
    await backToBaseline();
    const after = await rawRequest(
      server.directUrl,
      'GET /api/v1/users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(after.status).toBe(200);
    await backToBaseline();
  });
});

/**
 * The Prism gate itself (tests/support/prism.ts, used by startTestServer), against a fake upstream
 * whose replies are known: a reply that breaks openapi.json fails the request and is recorded, a
 * request Prism refuses reaches the server directly (once), a good reply comes through Prism, and
 * any client (not only the test helpers) can use it. Each case runs through a gate with its own Prism
 * and through one over the run's shared Prism (started by tests/support/global-setup.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { request } from '../support/http.js';
import { GATE_HEADER, PrismViolationError, startPrismGate, type PrismGate } from '../support/prism.js';

const envelope = (code: string) => ({ success: false, error: { code, message: 'm', request_id: 'r' } });

/** Replies by path. */
const replies: Record<string, { status: number; body: unknown; type?: string }> = {
  '/healthz': { status: 200, body: { status: 'broken' } },
  '/readyz': { status: 200, body: { status: 'ok' } },
  '/.well-known/jwks.json': { status: 418, body: envelope('INTERNAL') },
  '/api/v1/auth/check-username': { status: 400, body: envelope('VALIDATION_FAILED') },
  '/api/v1/auth/login': { status: 400, body: envelope('BAD_REQUEST') },
  // asked without credentials, so Prism refuses it and the gate sends it directly
  '/api/v1/auth/2fa/status': {
    status: 401,
    body: { ...envelope('UNAUTHENTICATED'), trace: '/srv/riff/server/src/auth.ts:42' },
  },
};
/** What reached the upstream. */
const seen: string[] = [];
let upstream: Server;
const gates: Partial<Record<'own' | 'shared', PrismGate>> = {};

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    seen.push(`${req.method} ${req.url}`);
    const reply = replies[path] ?? { status: 404, body: envelope('NOT_FOUND') };
    res.writeHead(reply.status, [
      'content-type',
      reply.type ?? 'application/json',
      'x-request-id',
      'r',
      'set-cookie',
      'a=1; Path=/',
      'set-cookie',
      'b=2; Path=/',
    ]);
    res.end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  gates.own = await startPrismGate({ upstream: address });
  console.warn(`prism proxy started in ${gates.own.startupMs} ms`);
  if (inject('sharedPrism')) gates.shared = await startPrismGate({ upstream: address, shared: inject('sharedPrism') });
});
afterAll(async () => {
  await gates.own?.close();
  await gates.shared?.close();
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
});

// the run's shared Prism exists unless RIFF_TEST_PRISM_PROXY=0 (CI's PostgreSQL pass, whose embedded
// twin runs both kinds)
const kinds = inject('sharedPrism') ? (['own', 'shared'] as const) : (['own'] as const);

describe.each(kinds)('requests through a Prism gate (%s Prism)', (kind) => {
  const gate = () => {
    const found = gates[kind];
    if (!found) throw new Error(`no ${kind} Prism (RIFF_TEST_PRISM_PROXY=0?)`);
    return found;
  };

  it('return a conforming reply of the server, having come through Prism', async () => {
    const reply = await request(gate().baseUrl, 'GET', '/readyz');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ status: 'ok' });
    expect(reply.via).toBe('prism');
  });

  it('fail at once when the server answers a body that openapi.json does not allow', async () => {
    const error = await request(gate().baseUrl, 'GET', '/healthz').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrismViolationError);
    expect((error as PrismViolationError).violations.some((v) => v.location[0] === 'response')).toBe(true);
    expect(String(error)).toMatch(/GET \/healthz: .*violates openapi\.json/);
  });

  it('fail when the server answers a status that openapi.json does not declare', async () => {
    await expect(request(gate().baseUrl, 'GET', '/.well-known/jwks.json')).rejects.toThrow(PrismViolationError);
  });

  it('record violations of requests from any client, for startTestServer to fail on', async () => {
    const before = gate().violations.length;
    const reply = await fetch(`${gate().baseUrl}/healthz`);
    expect(reply.headers.get(GATE_HEADER)).toBe('violation');
    expect(gate().violations.slice(before)).toEqual([
      expect.objectContaining({ method: 'GET', url: '/healthz', reported: false }),
    ]);
    gate().report(gate().violations.at(-1)!.id);
  });

  it('fail a reply that did not go through Prism when the strict check finds it breaks openapi.json', async () => {
    const before = seen.length;
    const error = await request(gate().baseUrl, 'GET', '/api/v1/auth/2fa/status').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PrismViolationError);
    expect(String(error)).toMatch(/\(direct\) breaks openapi\.json by the strict check/);
    expect(String(error)).toMatch(/authTwoFactorStatus 401: \/trace: has a property the document does not declare/);
    expect((error as PrismViolationError).violations).toEqual([
      expect.objectContaining({ location: ['response', 'trace'] }),
    ]);
    expect(seen.slice(before)).toEqual(['GET /api/v1/auth/2fa/status']);
  });

  it('send a request that Prism refuses (outside the document) to the server directly, once', async () => {
    const before = seen.length;
    const reply = await request(gate().baseUrl, 'GET', '/api/v1/auth/check-username');
    expect(reply.via).toBe('direct');
    expect(reply.prismRefusal).toMatch(/UNPROCESSABLE_ENTITY/);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(envelope('VALIDATION_FAILED'));
    expect(seen.slice(before)).toEqual(['GET /api/v1/auth/check-username']);
  });

  it('is transparent to other clients: a refused request answers as the server does, cookies intact', async () => {
    const reply = await fetch(`${gate().baseUrl}/api/v1/auth/check-username?username=a`);
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual(envelope('VALIDATION_FAILED'));
    expect(reply.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('send unknown paths, malformed JSON and what would crash Prism to the server directly', async () => {
    const unknown = await request(gate().baseUrl, 'GET', '/no/such/path');
    expect(unknown.via).toBe('direct');
    expect(unknown.status).toBe(404);
    const malformed = await request(gate().baseUrl, 'POST', '/api/v1/auth/login', {
      rawBody: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.via).toBe('direct');
    const nested = await request(gate().baseUrl, 'POST', '/api/v1/auth/login', {
      rawBody: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.prismRefusal).toMatch(/nested/);
    expect(gate().prism.running()).toBe(true);
  });
});

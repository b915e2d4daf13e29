/**
 * With REDIS_URL (and a shared PostgreSQL), a key's hourly count is one count whatever instance
 * answers. Runs in the PostgreSQL + Redis pass only (on PGlite two apps cannot share a database).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { api } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!shared)('API-key limits across instances (Redis)', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // one deployment: the same counter names in the same Redis
    const overrides = { rateLimitPrefix: `keys-${randomUUID()}` };
    [a, b] = await Promise.all([startTestServer({}, overrides), startTestServer({}, overrides)]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('requests through A and B draw on one count, reads and writes apart', async () => {
    const owner = await createUser(a);
    const created = await api(a.baseUrl).post('/developer/api-keys', {
      token: owner.accessToken,
      body: { name: 'shared', scopes: ['read', 'write'] },
    });
    const headers = { 'x-api-key': created.body.data.key as string };
    const remaining: number[] = [];
    for (const server of [a, b, a, b]) {
      const reply = await api(server.baseUrl).get('/auth/me', { headers });
      expect(reply.status).toBe(200);
      remaining.push(Number(reply.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([999, 998, 997, 996]);
    const write = await api(b.baseUrl).post('/playlists', { headers, body: { title: 'through B' } });
    expect(write.status).toBe(201);
    expect(Number(write.headers.get('x-ratelimit-remaining'))).toBe(199);
    const next = await api(a.baseUrl).post('/playlists', { headers, body: { title: 'through A' } });
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(198);
  });
});

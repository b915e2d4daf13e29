import { describe, expect, it } from 'vitest';
import { api, request } from '../support/http.js';
import { startTestServer } from '../support/test-server.js';
import { useTestServer } from '../support/suite.js';
import { signedInUser } from '../support/accounts.js';

const suite = useTestServer();

const envelope = {
  success: false,
  error: { code: expect.any(String), message: expect.any(String), request_id: expect.any(String) },
};

describe('system endpoints', () => {
  it('healthz, readyz, docs and the OpenAPI document answer', async () => {
    expect((await request(suite.server.baseUrl, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(suite.server.baseUrl, 'GET', '/readyz')).body).toEqual({ status: 'ok' });
    const docs = await request(suite.server.baseUrl, 'GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/text\/html/);
    expect(docs.text).toContain('swagger-ui');
    const bundle = await request(suite.server.baseUrl, 'GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    const document = await request(suite.server.baseUrl, 'GET', '/api/v1/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body.info.version).toBe('1.2.0');
    expect(document.body.openapi).toMatch(/^3\.0\./);
  });

  it('readyz answers 503 UNAVAILABLE when the database does not', async () => {
    const other = await startTestServer();
    await other.riff.database.close();
    const reply = await request(other.baseUrl, 'GET', '/readyz');
    expect(reply.status).toBe(503);
    expect(reply.body.error.code).toBe('UNAVAILABLE');
    expect(Number(reply.headers.get('retry-after'))).toBeGreaterThan(0);
    await other.close().catch(() => undefined);
  });
});

describe('error envelope', () => {
  it('an unknown route is 404 NOT_FOUND', async () => {
    const reply = await suite.http.get('/no/such/route');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ ...envelope, error: { ...envelope.error, code: 'NOT_FOUND' } });
  });

  it('malformed JSON is 400 BAD_REQUEST, a wrong content type 415, a body too large 413', async () => {
    const malformed = await suite.http.post('/auth/login', {
      rawBody: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('BAD_REQUEST');

    const wrongType = await suite.http.post('/auth/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const huge = await suite.http.post('/auth/login', {
      rawBody: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    const primitive = await suite.http.post('/auth/login', {
      rawBody: '"just a string"',
      headers: { 'content-type': 'application/json' },
    });
    expect(primitive.status).toBe(400);
  });

  it('validation failures list every problem as {field, message, value}', async () => {
    const reply = await suite.http.post('/auth/login', { body: { email: 42, remember_me: 'yes' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    const fields = reply.body.error.details.map((detail: { field: string }) => detail.field).sort();
    expect(fields).toEqual(['email', 'password', 'remember_me']);
    for (const detail of reply.body.error.details) {
      expect(detail).toEqual({ field: expect.any(String), message: expect.any(String), value: expect.any(String) });
    }
  });

  it('odd query values are 400, never 500', async () => {
    for (const query of ['username[a]=b', 'username=a&username=b', 'username=%00', `username=${'x'.repeat(500)}`]) {
      const reply = await suite.http.get(`/auth/check-username?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('unknown body fields are ignored', async () => {
    const reply = await suite.http.post('/auth/check-username', {});
    expect(reply.status).toBe(404);
    const ignored = await suite.http.post('/auth/resend-verification', {
      body: { email: 'a@example.test', role: 'admin', is_admin: true },
    });
    expect(ignored.status).toBe(200);
  });
});

describe('request ids and headers', () => {
  it('every reply carries X-Request-Id, the caller’s when sane', async () => {
    const mine = await request(suite.server.baseUrl, 'GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const insane = await request(suite.server.baseUrl, 'GET', '/healthz', {
      headers: { 'x-request-id': 'bad id with spaces <script>' },
    });
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const failure = await suite.http.get('/nothing', { headers: { 'x-request-id': 'req-42' } });
    expect(failure.body.error.request_id).toBe('req-42');
  });

  it('sends security headers and no X-Powered-By', async () => {
    const reply = await request(suite.server.baseUrl, 'GET', '/healthz');
    expect(reply.headers.get('x-powered-by')).toBeNull();
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('CORS preflights', () => {
  it('may be cached by the browser: Access-Control-Max-Age, 7200 s unless CORS_MAX_AGE_SECONDS says otherwise', async () => {
    const preflight = (baseUrl: string) =>
      request(baseUrl, 'OPTIONS', '/api/v1/tracks', {
        headers: {
          origin: 'https://app.riff.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const standard = await preflight(suite.server.baseUrl);
    expect(standard.status).toBe(204);
    expect(standard.headers.get('access-control-max-age')).toBe('7200');
    const other = await startTestServer({ CORS_ORIGINS: 'https://app.riff.example', CORS_MAX_AGE_SECONDS: '600' });
    try {
      const reply = await preflight(other.baseUrl);
      expect(reply.status).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe('https://app.riff.example');
      expect(reply.headers.get('access-control-max-age')).toBe('600');
      // an ordinary request carries no Max-Age (it only means something on a preflight)
      const plain = await request(other.baseUrl, 'GET', '/api/v1/tracks', {
        headers: { origin: 'https://app.riff.example' },
      });
      expect(plain.headers.get('access-control-max-age')).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('per-address request limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After past RATE_LIMIT_PER_MINUTE, but never on health checks', async () => {
    const limited = await startTestServer({ RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++)
        statuses.push((await api(limited.baseUrl).get('/auth/check-username?username=abcdef')).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      const blocked = await api(limited.baseUrl).get('/auth/check-username?username=abcdef');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe('RATE_LIMITED');
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await request(limited.baseUrl, 'GET', '/healthz')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('NUL characters', () => {
  it('are refused with 400 in path, query and body, and ignored in undeclared query keys', async () => {
    const user = await signedInUser(suite.server);
    const cases = [
      suite.http.get('/users?search=a%00b'),
      suite.http.get('/users/by-username/a%00b'),
      suite.http.get('/tracks?q=a%00b'),
      suite.http.put('/users/me', { token: user.accessToken, body: { bio: 'a\u0000b' } }),
      suite.http.put('/users/me', {
        token: user.accessToken,
        body: { social_links: { 'x\u0000': 'https://a.example' } },
      }),
      suite.http.post('/tracks/initiate', {
        token: user.accessToken,
        body: { filename: 'a\u0000b', total_chunks: 1, total_size: 10 },
      }),
    ];
    for (const reply of await Promise.all(cases)) {
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await suite.http.get('/auth/check-username?username=abcdef&junk=%00')).status).toBe(200);
  });
});

/**
 * The headers the server sends are documented on the operation and status that send them, so a
 * generated client (and /docs) knows about ETag, Content-Range, Set-Cookie, Deprecation and the rest.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RESPONSE_HEADERS } from '../../contract/src/openapi/response-headers.js';
import { newIdentity, register, signedInOverHttp, signedInUser } from '../support/accounts.js';
import { silentWav, uploadTrack } from '../support/audio.js';
import { request } from '../support/http.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { OPENAPI_DOCUMENT } from '../support/prism.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();
const document = JSON.parse(readFileSync(OPENAPI_DOCUMENT, 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
};
const tracked = Object.keys(RESPONSE_HEADERS).map((name) => name.toLowerCase());

/** The tracked headers of a reply that the document does not list for that operation and status. */
function undocumented(method: string, path: string, reply: { status: number; headers: Headers }): string[] {
  const response = document.paths[`/api/v1${path}`]?.[method]?.responses[String(reply.status)];
  if (!response) return [`${method} ${path} ${reply.status} is not documented`];
  const documented = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
  return tracked
    .filter((name) => reply.headers.has(name) && !documented.has(name))
    .map((name) => `${method} ${path} ${reply.status}: ${name}`);
}

describe('response headers in openapi.json', () => {
  it('cover what login, streaming and errors send', async () => {
    const user = await signedInOverHttp(suite.server);
    const base = suite.server.baseUrl;
    const found: string[] = [];
    const check = (method: string, path: string, reply: { status: number; headers: Headers }, expected: string[]) => {
      for (const name of expected)
        expect(reply.headers.has(name), `${method} ${path} ${reply.status} sends ${name}`).toBe(true);
      found.push(...undocumented(method, path, reply));
    };

    check('post', '/auth/login', user.reply, ['set-cookie', 'x-request-id']);

    const bytes = silentWav(32 * 1024);
    const track = await uploadTrack(base, user.accessToken, bytes, 'tone.wav');
    const stream = `/tracks/${track.id}/stream`;
    const whole = await request(base, 'GET', `/api/v1${stream}`, { token: user.accessToken });
    check('get', '/tracks/{id}/stream', whole, ['etag', 'accept-ranges', 'content-disposition']);
    const part = await request(base, 'GET', `/api/v1${stream}`, {
      token: user.accessToken,
      headers: { range: 'bytes=0-9' },
    });
    check('get', '/tracks/{id}/stream', part, ['content-range', 'etag']);
    const cached = await request(base, 'GET', `/api/v1${stream}`, {
      token: user.accessToken,
      headers: { 'if-none-match': whole.headers.get('etag')! },
    });
    check('get', '/tracks/{id}/stream', cached, ['etag']);
    const beyond = await request(base, 'GET', `/api/v1${stream}`, {
      token: user.accessToken,
      headers: { range: `bytes=${bytes.length + 10}-` },
    });
    check('get', '/tracks/{id}/stream', beyond, ['content-range']);
    expect([whole.status, part.status, cached.status, beyond.status]).toEqual([200, 206, 304, 416]);

    const missing = await request(base, 'GET', `/api/v1/tracks/${randomUUID()}`, { token: user.accessToken });
    check('get', '/tracks/{id}', missing, ['x-request-id']);

    const other = await register(suite.server, newIdentity());
    const mail = await waitForMail(suite.server.outboxDir, other.email, 'verify-email');
    const deprecated = await request(
      base,
      'POST',
      `/api/v1/auth/verify-email?token=${encodeURIComponent(tokenFromMail(mail))}`,
    );
    expect(deprecated.status).toBe(200);
    check('post', '/auth/verify-email', deprecated, ['deprecation']);

    expect(found).toEqual([]);
  });

  it('sends no ETag on JSON replies (one that never revalidates would only mislead caches)', async () => {
    const user = await signedInUser(suite.server);
    const me = await request(suite.server.baseUrl, 'GET', '/api/v1/auth/me', { token: user.accessToken });
    expect(me.status).toBe(200);
    expect(me.headers.get('etag')).toBeNull();
  });

  it('puts Retry-After on every 429 and 503, and X-Request-Id on every reply', () => {
    const problems: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const names = Object.keys(response.headers ?? {});
          if (!names.includes('X-Request-Id')) problems.push(`${method} ${path} ${status}: X-Request-Id`);
          if ((status === '429' || status === '503') && !names.includes('Retry-After'))
            problems.push(`${method} ${path} ${status}: Retry-After`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { api } from '../support/http.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

type Scope = 'read' | 'write' | 'admin';

async function newKey(owner: TestUser, scopes: Scope[], extra: Record<string, unknown> = {}) {
  const reply = await suite.http.post('/developer/api-keys', {
    token: owner.accessToken,
    body: { name: `key ${scopes.join('+')}`, scopes, ...extra },
  });
  expect(reply.status).toBe(201);
  return reply.body.data as {
    api_key: { id: string; prefix: string; scopes: Scope[]; last_used_at: string | null };
    key: string;
  };
}

const withKey = (key: string) => ({ headers: { 'x-api-key': key } });

function rateHeaders(reply: { headers: Headers }) {
  return {
    limit: Number(reply.headers.get('x-ratelimit-limit')),
    remaining: Number(reply.headers.get('x-ratelimit-remaining')),
    reset: Number(reply.headers.get('x-ratelimit-reset')),
  };
}

describe('creating, listing and revoking API keys', () => {
  it('shows the whole key once; lists show its prefix only, newest first', async () => {
    const owner = await createUser(suite.server);
    const first = await newKey(owner, ['read']);
    const second = await newKey(owner, ['read', 'write'], {
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(first.key).toMatch(/^riff_[0-9A-Za-z]{40}$/);
    expect(first.api_key.prefix).toBe(first.key.slice(0, 12));
    expect(first.api_key).toMatchObject({ name: 'key read', scopes: ['read'], last_used_at: null, expires_at: null });
    expect(second.key).not.toBe(first.key);

    const list = await suite.http.get('/developer/api-keys', { token: owner.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.data.api_keys.map((key: { id: string }) => key.id)).toEqual([second.api_key.id, first.api_key.id]);
    expect(list.text).not.toContain(first.key);
    expect(list.text).not.toContain(second.key);
    expect(list.body.data.api_keys[0]).toEqual(second.api_key);

    const other = await createUser(suite.server);
    expect((await suite.http.get('/developer/api-keys', { token: other.accessToken })).body.data.api_keys).toEqual([]);
  });

  it.each([
    ['no scope', { name: 'k', scopes: [] }, 'scopes'],
    ['an unknown scope', { name: 'k', scopes: ['root'] }, 'scopes.0'],
    ['a repeated scope', { name: 'k', scopes: ['read', 'read'] }, 'scopes'],
    ['an empty name', { name: '   ', scopes: ['read'] }, 'name'],
    ['an expiry in the past', { name: 'k', scopes: ['read'], expires_at: '2020-01-01T00:00:00.000Z' }, 'expires_at'],
  ])('%s is 400 VALIDATION_FAILED naming the field, and no key is made', async (_name, body, field) => {
    const owner = await createUser(suite.server);
    const reply = await suite.http.post('/developer/api-keys', { token: owner.accessToken, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details.map((issue: { field: string }) => issue.field)).toContain(field);
    expect((await suite.http.get('/developer/api-keys', { token: owner.accessToken })).body.data.api_keys).toEqual([]);
  });

  it('holds at most 25 keys: the 26th is 400 LIMIT_REACHED, also when creations race', async () => {
    const owner = await createUser(suite.server);
    for (let i = 0; i < 23; i += 1) await newKey(owner, ['read']);
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        suite.http.post('/developer/api-keys', { token: owner.accessToken, body: { name: 'racer', scopes: ['read'] } }),
      ),
    );
    expect(racing.filter((reply) => reply.status === 201)).toHaveLength(2);
    for (const refused of racing.filter((reply) => reply.status !== 201)) {
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('LIMIT_REACHED');
    }
    expect((await suite.http.get('/developer/api-keys', { token: owner.accessToken })).body.data.api_keys).toHaveLength(
      25,
    );
  });

  it('revoking stops the key at once; another user’s key is 404 and keeps working', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const { api_key, key } = await newKey(owner, ['read']);
    expect((await suite.http.get('/auth/me', withKey(key))).status).toBe(200);

    const foreign = await suite.http.delete(`/developer/api-keys/${api_key.id}`, { token: other.accessToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect((await suite.http.get('/auth/me', withKey(key))).status).toBe(200);

    const revoked = await suite.http.delete(`/developer/api-keys/${api_key.id}`, { token: owner.accessToken });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ success: true, data: { message: 'API key revoked' } });
    const after = await suite.http.get('/auth/me', withKey(key));
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_CREDENTIALS');
    expect((await suite.http.delete(`/developer/api-keys/${api_key.id}`, { token: owner.accessToken })).status).toBe(
      404,
    );
    expect(
      (await suite.http.delete('/developer/api-keys/not-a-uuid', { token: owner.accessToken })).body.error.code,
    ).toBe('INVALID_ID');

    const audit = await suite.http.get('/audit/logs?resource=api_key', { token: owner.accessToken });
    expect(audit.body.data.logs.map((entry: { action: string }) => entry.action).sort()).toEqual([
      'api_key.created',
      'api_key.revoked',
    ]);
    expect(JSON.stringify(audit.body.data.logs)).not.toContain(key);
  });
});

describe('authenticating with a key', () => {
  it('acts as its owner, sent as X-API-Key or as a bearer value, and records when it was used', async () => {
    const owner = await createUser(suite.server);
    const { api_key, key } = await newKey(owner, ['read']);
    const viaHeader = await suite.http.get('/auth/me', withKey(key));
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body.data.id).toBe(owner.id);
    const viaBearer = await suite.http.get('/auth/me', { token: key });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body.data.id).toBe(owner.id);
    const [listed] = (await suite.http.get('/developer/api-keys', { token: owner.accessToken })).body.data.api_keys;
    expect(listed.id).toBe(api_key.id);
    expect(Date.parse(listed.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('read allows GET, write allows POST, PUT and DELETE, admin both; otherwise 403 INSUFFICIENT_SCOPE', async () => {
    const owner = await createUser(suite.server);
    const keys = {
      read: (await newKey(owner, ['read'])).key,
      write: (await newKey(owner, ['write'])).key,
      admin: (await newKey(owner, ['admin'])).key,
    };
    const read = (key: string) => suite.http.get('/auth/me', withKey(key));
    const write = (key: string) =>
      suite.http.post('/playlists', { ...withKey(key), body: { title: 'made with a key' } });

    expect((await read(keys.read)).status).toBe(200);
    const readWrites = await write(keys.read);
    expect(readWrites.status).toBe(403);
    expect(readWrites.body.error.code).toBe('INSUFFICIENT_SCOPE');

    const writeReads = await read(keys.write);
    expect(writeReads.status).toBe(403);
    expect(writeReads.body.error.code).toBe('INSUFFICIENT_SCOPE');
    const made = await write(keys.write);
    expect(made.status).toBe(201);
    expect(made.body.data.playlist.owner_id ?? made.body.data.playlist.user_id).toBe(owner.id);
    const removed = await suite.http.delete(`/playlists/${made.body.data.playlist.id}`, withKey(keys.write));
    expect(removed.status).toBe(200);

    expect((await read(keys.admin)).status).toBe(200);
    expect((await write(keys.admin)).status).toBe(201);
  });

  it('never performs account-security operations, whatever its scope: 403 INSUFFICIENT_SCOPE', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['admin']);
    const attempts = [
      suite.http.post('/auth/password/change', {
        ...withKey(key),
        body: {
          current_password: owner.password,
          password: 'a new password 2026!',
          password_confirmation: 'a new password 2026!',
        },
      }),
      suite.http.get('/developer/api-keys', withKey(key)),
      suite.http.post('/developer/api-keys', { ...withKey(key), body: { name: 'minted by a key', scopes: ['admin'] } }),
      suite.http.post('/auth/2fa/setup', withKey(key)),
    ];
    for (const reply of await Promise.all(attempts)) {
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('INSUFFICIENT_SCOPE');
    }
    expect((await suite.http.get('/developer/api-keys', { token: owner.accessToken })).body.data.api_keys).toHaveLength(
      1,
    );
    expect(
      (await suite.http.post('/auth/login', { body: { email: owner.email, password: owner.password } })).status,
    ).toBe(200);
  });

  it('an unknown key, or the key of an owner who may no longer act, is 401', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['read']);
    const unknown = await suite.http.get('/auth/me', withKey(`riff_${'Z'.repeat(40)}`));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();

    const deleted = await suite.http.delete('/users/me', {
      token: owner.accessToken,
      body: { password: owner.password, confirm_text: 'DELETE' },
    });
    expect(deleted.status).toBe(200);
    expect((await suite.http.get('/auth/me', withKey(key))).status).toBe(401);
  });
});

describe('the hourly limits of a key', () => {
  it('every reply carries the rate headers, refusals included; reads and writes count apart', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['read']);
    const first = await suite.http.get('/auth/me', withKey(key));
    const second = await suite.http.get('/auth/me', withKey(key));
    expect(rateHeaders(first)).toMatchObject({ limit: 1000, remaining: 999 });
    expect(rateHeaders(second)).toMatchObject({ limit: 1000, remaining: 998 });
    const now = Date.now() / 1000;
    expect(rateHeaders(second).reset).toBeGreaterThan(now);
    expect(rateHeaders(second).reset).toBeLessThanOrEqual(now + 3601);

    const refusedWrite = await suite.http.post('/playlists', { ...withKey(key), body: { title: 'no' } });
    expect(refusedWrite.status).toBe(403);
    expect(rateHeaders(refusedWrite)).toMatchObject({ limit: 200, remaining: 199 });
    const refusedSecurity = await suite.http.get('/developer/api-keys', withKey(key));
    expect(refusedSecurity.status).toBe(403);
    expect(rateHeaders(refusedSecurity)).toMatchObject({ limit: 1000, remaining: 997 });
    // a bearer request carries none
    expect(
      (await suite.http.get('/auth/me', { token: owner.accessToken })).headers.get('x-ratelimit-limit'),
    ).toBeNull();
  });

  it('the 201st write of the hour is 429 RATE_LIMITED naming the write limit; Retry-After and X-RateLimit-Reset agree; reads go on', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['read', 'write']);
    const direct = api(suite.server.directUrl);
    // refused writes count too: 200 invalid bodies use up the hour
    for (let batch = 0; batch < 8; batch += 1) {
      const replies = await Promise.all(
        Array.from({ length: 25 }, () => direct.post('/playlists', { ...withKey(key), body: {} })),
      );
      for (const reply of replies) expect(reply.status).toBe(400);
    }
    const over = await suite.http.post('/playlists', { ...withKey(key), body: { title: 'one too many' } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('RATE_LIMITED');
    expect(over.body.error.details).toEqual([expect.objectContaining({ field: 'limit', value: 'write' })]);
    const headers = rateHeaders(over);
    expect(headers).toMatchObject({ limit: 200, remaining: 0 });
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(Math.abs(headers.reset - (Math.ceil(Date.now() / 1000) + retryAfter))).toBeLessThanOrEqual(2);
    expect((await suite.http.get('/developer/api-keys', { token: owner.accessToken })).body.data.api_keys).toHaveLength(
      1,
    );

    const read = await suite.http.get('/auth/me', withKey(key));
    expect(read.status).toBe(200);
    expect(rateHeaders(read)).toMatchObject({ limit: 1000, remaining: 999 });
    // another key of the same owner has its own count
    const fresh = await newKey(owner, ['write']);
    expect((await suite.http.post('/playlists', { ...withKey(fresh.key), body: { title: 'fresh key' } })).status).toBe(
      201,
    );
  });

  it('the 1001st read of the hour is 429 naming the read limit', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['read']);
    const direct = api(suite.server.directUrl);
    for (let batch = 0; batch < 40; batch += 1) {
      const replies = await Promise.all(Array.from({ length: 25 }, () => direct.get('/auth/me', withKey(key))));
      for (const reply of replies) expect(reply.status).toBe(200);
    }
    const over = await suite.http.get('/auth/me', withKey(key));
    expect(over.status).toBe(429);
    expect(over.body.error.details).toEqual([expect.objectContaining({ field: 'limit', value: 'read' })]);
    expect(rateHeaders(over)).toMatchObject({ limit: 1000, remaining: 0 });
  });
});

describe('keys in the account’s data', () => {
  it('the export lists them without the keys themselves', async () => {
    const owner = await createUser(suite.server);
    const { api_key, key } = await newKey(owner, ['read']);
    const exported = await suite.http.get('/users/me/export', { token: owner.accessToken });
    expect(exported.status).toBe(200);
    expect(exported.body.api_keys).toEqual([api_key]);
    expect(exported.text).not.toContain(key);
  });
});

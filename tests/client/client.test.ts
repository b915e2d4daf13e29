import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateTOTP } from '@oslojs/otp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRiffClient,
  memoryTokenStore,
  ResponseValidationError,
  type RiffClientOptions,
  type TokenStore,
} from '@riff/client';
import { newIdentity, register, signedInUser, verify } from '../support/accounts.js';
import { audioForm, makeAudio } from '../support/audio.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

interface Sent {
  method: string;
  path: string;
  authorization: string | null;
}

/** A fetch that records every request it forwards to the real one, and can delay or replace replies. */
function recordingFetch(
  hooks: { before?: (sent: Sent, index: number) => Promise<Response | void> | Response | void } = {},
) {
  const sent: Sent[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const entry: Sent = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      authorization: new Headers(init?.headers).get('authorization'),
    };
    sent.push(entry);
    const replaced = await hooks.before?.(entry, sent.length - 1);
    return replaced ?? fetch(input, init);
  };
  return { sent, fetch: fetchImpl, count: (path: string) => sent.filter((entry) => entry.path === path).length };
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** Looks like an expired EdDSA access token, but is signed by nobody. */
const expiredLookingJwt = () =>
  `${base64url({ alg: 'EdDSA', typ: 'JWT' })}.${base64url({ sub: crypto.randomUUID(), exp: Math.floor(Date.now() / 1000) - 60 })}.${'A'.repeat(86)}`;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function clientFor(tokens: TokenStore, extra: Partial<RiffClientOptions> = {}) {
  return createRiffClient({ baseUrl: server.baseUrl, tokens, ...extra });
}

describe('typed calls', () => {
  it('calls public routes with typed inputs and outputs, without an Authorization header', async () => {
    const recorder = recordingFetch();
    const user = await signedInUser(server);
    const client = clientFor(memoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }), {
      fetch: recorder.fetch,
    });

    const health = await client.system.health();
    expect(health.status).toBe(200);
    if (health.status === 200) expect(health.body.status).toBe('ok');

    const taken = await client.auth.checkUsername({ query: { username: user.username } });
    expect(taken.status).toBe(200);
    if (taken.status === 200) expect(taken.body.data).toEqual({ available: false, username: user.username });

    const jwks = await client.system.jwks();
    expect(jwks.status).toBe(200);
    if (jwks.status === 200) expect(jwks.body.keys.length).toBeGreaterThan(0);

    expect(recorder.sent.map((entry) => entry.path)).toEqual([
      '/healthz',
      '/api/v1/auth/check-username',
      '/.well-known/jwks.json',
    ]);
    for (const entry of recorder.sent) expect(entry.authorization).toBeNull();
  });

  it('answers a contract error as a typed error envelope', async () => {
    const client = createRiffClient({ baseUrl: server.baseUrl });
    const reply = await client.auth.checkUsername({ query: { username: 'x' } });
    expect(reply.status).toBe(400);
    if (reply.status === 400) expect(reply.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('login keeps the tokens and the bearer token is injected on authenticated routes', async () => {
    const user = await register(server);
    await verify(server, user.email);
    const recorder = recordingFetch();
    const tokens = memoryTokenStore();
    const client = clientFor(tokens, { fetch: recorder.fetch, headers: { 'X-Request-Id': 'client-test-1' } });

    const login = await client.login({ email: user.email, password: user.password });
    expect(login.status).toBe(200);
    if (login.status !== 200 || login.body.requires_2fa) throw new Error('login failed');
    expect(tokens.getAccessToken()).toBe(login.body.token.access_token);
    expect(tokens.getRefreshToken()).toBe(login.body.token.refresh_token);

    const me = await client.auth.me();
    expect(me.status).toBe(200);
    if (me.status === 200)
      expect(me.body.data).toMatchObject({ id: user.id, email: user.email, username: user.username });
    expect(me.headers.get('x-request-id')).toBe('client-test-1');

    expect(recorder.sent).toEqual([
      { method: 'POST', path: '/api/v1/auth/login', authorization: null },
      { method: 'GET', path: '/api/v1/auth/me', authorization: `Bearer ${login.body.token.access_token}` },
    ]);
  });

  it('leaves a call that brings its own Authorization alone: no stored token, no refresh', async () => {
    const user = await signedInUser(server);
    const recorder = recordingFetch();
    const client = clientFor(memoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }), {
      fetch: recorder.fetch,
    });
    const reply = await client.auth.me({ extraHeaders: { Authorization: 'Bearer not-a-token' } });
    expect(reply.status).toBe(401);
    expect(recorder.sent).toEqual([{ method: 'GET', path: '/api/v1/auth/me', authorization: 'Bearer not-a-token' }]);
  });
});

describe('refresh on 401', () => {
  it('refreshes transparently when the access token is refused, and keeps the rotated pair', async () => {
    const user = await signedInUser(server);
    const recorder = recordingFetch();
    const tokens = memoryTokenStore({ accessToken: expiredLookingJwt(), refreshToken: user.refreshToken });
    const onSessionExpired = vi.fn();
    const client = clientFor(tokens, { fetch: recorder.fetch, onSessionExpired });

    const me = await client.auth.me();
    expect(me.status).toBe(200);
    if (me.status === 200) expect(me.body.data.id).toBe(user.id);
    expect(recorder.sent.map((entry) => entry.path)).toEqual([
      '/api/v1/auth/me',
      '/api/v1/auth/refresh',
      '/api/v1/auth/me',
    ]);
    expect(recorder.sent[1]!.authorization).toBeNull();
    const fresh = tokens.getAccessToken();
    expect(recorder.sent[2]!.authorization).toBe(`Bearer ${fresh}`);
    expect(tokens.getRefreshToken()).not.toBe(user.refreshToken);
    expect(onSessionExpired).not.toHaveBeenCalled();

    // the new pair keeps working without another refresh
    expect((await client.auth.twoFactorStatus()).status).toBe(200);
    expect(recorder.count('/api/v1/auth/refresh')).toBe(1);
  });

  it('sends exactly one refresh for many concurrent calls that all get 401', async () => {
    const user = await signedInUser(server);
    const recorder = recordingFetch();
    const client = clientFor(memoryTokenStore({ accessToken: expiredLookingJwt(), refreshToken: user.refreshToken }), {
      fetch: recorder.fetch,
    });

    const replies = await Promise.all([
      ...Array.from({ length: 6 }, () => client.auth.me()),
      client.auth.twoFactorStatus(),
      client.auth.chatToken(),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual(Array(8).fill(200));
    expect(recorder.count('/api/v1/auth/refresh')).toBe(1);
  });

  it('does not refresh again for a 401 that arrives after another request already refreshed', async () => {
    const user = await signedInUser(server);
    const stale = expiredLookingJwt();
    // Replies to requests sent with the stale token come back staggered, the last ones well after the refresh.
    let staleReplies = 0;
    const recorder = recordingFetch({
      before: async (sent) => {
        if (sent.authorization === `Bearer ${stale}`) await sleep(150 * staleReplies++);
      },
    });
    const client = clientFor(memoryTokenStore({ accessToken: stale, refreshToken: user.refreshToken }), {
      fetch: recorder.fetch,
    });

    const replies = await Promise.all(Array.from({ length: 4 }, () => client.auth.me()));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(recorder.count('/api/v1/auth/refresh')).toBe(1);
  });

  it('calls onSessionExpired once and returns the 401 when the refresh is refused', async () => {
    const user = await signedInUser(server);
    const recorder = recordingFetch();
    const tokens = memoryTokenStore({ accessToken: expiredLookingJwt(), refreshToken: `${user.refreshToken}x` });
    const onSessionExpired = vi.fn();
    const client = clientFor(tokens, { fetch: recorder.fetch, onSessionExpired });

    const replies = await Promise.all([client.auth.me(), client.auth.me(), client.auth.twoFactorStatus()]);
    for (const reply of replies) {
      expect(reply.status).toBe(401);
      if (reply.status === 401) expect(reply.body.error.code).toMatch(/^(UNAUTHENTICATED|TOKEN_EXPIRED)$/);
    }
    expect(recorder.count('/api/v1/auth/refresh')).toBe(1);
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(tokens.getAccessToken()).toBeUndefined();
    expect(tokens.getRefreshToken()).toBeUndefined();

    // with the session over, a later call is a plain 401 (one refresh attempt, which fails again)
    const later = await client.auth.me();
    expect(later.status).toBe(401);
  });

  it('keeps the tokens when the refresh fails for a reason other than the session (e.g. 503)', async () => {
    const user = await signedInUser(server);
    const stale = expiredLookingJwt();
    const recorder = recordingFetch({
      before: (sent) => {
        if (sent.path === '/api/v1/auth/refresh') {
          return json(503, { success: false, error: { code: 'UNAVAILABLE', message: 'down', request_id: 'r' } });
        }
      },
    });
    const tokens = memoryTokenStore({ accessToken: stale, refreshToken: user.refreshToken });
    const onSessionExpired = vi.fn();
    const client = clientFor(tokens, { fetch: recorder.fetch, onSessionExpired });
    expect((await client.auth.me()).status).toBe(401);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(tokens.getRefreshToken()).toBe(user.refreshToken);
  });
});

describe('login helpers', () => {
  it('loginTwoFactor completes a 2FA login and keeps the tokens', async () => {
    const user = await signedInUser(server);
    const setupClient = clientFor(memoryTokenStore({ accessToken: user.accessToken, refreshToken: user.refreshToken }));
    const setup = await setupClient.auth.twoFactorSetup();
    if (setup.status !== 200) throw new Error(`2fa setup failed: ${setup.status}`);
    const { secret, recovery_codes } = setup.body.data;
    const code = generateTOTP(decodeBase32IgnorePadding(secret), 30, 6);
    expect((await setupClient.auth.twoFactorVerify({ body: { code, secret } })).status).toBe(200);

    const tokens = memoryTokenStore();
    const client = clientFor(tokens);
    const first = await client.login({ email: user.email, password: user.password });
    if (first.status !== 200) throw new Error(`login failed: ${first.status}`);
    expect(first.body.requires_2fa).toBe(true);
    if (!first.body.requires_2fa) throw new Error('login issued tokens without 2FA');
    expect(first.body).not.toHaveProperty('token');
    expect(tokens.getAccessToken()).toBeUndefined();

    const second = await client.loginTwoFactor({
      two_factor_token: first.body.two_factor_token,
      code: recovery_codes[0]!,
    });
    expect(second.status).toBe(200);
    if (second.status !== 200 || second.body.requires_2fa) throw new Error('2fa login failed');
    expect(tokens.getAccessToken()).toBe(second.body.token.access_token);
    expect(tokens.getRefreshToken()).toBe(second.body.token.refresh_token);
    expect((await client.auth.me()).status).toBe(200);
  });

  it('logout revokes the session on the server and forgets the tokens', async () => {
    const identity = newIdentity();
    const user = await register(server, identity);
    await verify(server, user.email);
    const tokens = memoryTokenStore();
    const client = clientFor(tokens);
    await client.login({ email: user.email, password: user.password });
    const refreshToken = await tokens.getRefreshToken();
    expect(refreshToken).toBeDefined();

    const reply = await client.logout();
    expect(reply.status).toBe(200);
    expect(tokens.getAccessToken()).toBeUndefined();
    expect(tokens.getRefreshToken()).toBeUndefined();

    const other = createRiffClient({ baseUrl: server.baseUrl, validateResponse: true });
    const refused = await other.auth.refresh({ body: { refresh_token: refreshToken! } });
    expect(refused.status).toBe(401);
  });
});

describe('tracks through the client', () => {
  it('uploads FormData (resent after a refresh) and streams the audio back as a Blob, with Range', async () => {
    const user = await signedInUser(server);
    const recorder = recordingFetch();
    const client = clientFor(memoryTokenStore({ accessToken: expiredLookingJwt(), refreshToken: user.refreshToken }), {
      fetch: recorder.fetch,
    });
    const bytes = await makeAudio('mp3', { seconds: 1 });

    const upload = await client.tracks.upload({ body: audioForm(bytes, 'tone.mp3', { title: 'Client tone' }) });
    expect(upload.status).toBe(201);
    if (upload.status !== 201) throw new Error('upload failed');
    const { track } = upload.body.data;
    expect(track.title).toBe('Client tone');
    expect(recorder.sent.map((entry) => `${entry.method} ${entry.path}`)).toEqual([
      'POST /api/v1/tracks',
      'POST /api/v1/auth/refresh',
      'POST /api/v1/tracks',
    ]);

    const part = await client.tracks.stream({ params: { id: track.id }, headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    if (part.status !== 206) throw new Error('no partial content');
    expect(part.body).toBeInstanceOf(Blob);
    expect(Buffer.from(await (part.body as Blob).arrayBuffer())).toEqual(bytes.subarray(0, 100));
    expect(part.headers.get('content-range')).toBe(`bytes 0-99/${bytes.length}`);
  });
});

describe('response validation', () => {
  it('rejects a reply that does not match the contract', async () => {
    const user = await signedInUser(server);
    const malformed = recordingFetch({
      before: (sent) => {
        if (sent.path === '/api/v1/auth/me') return json(200, { success: true, data: { id: 42, email: null } });
        if (sent.path === '/healthz') return json(200, { status: 'fine' });
      },
    });
    const client = clientFor(memoryTokenStore({ accessToken: user.accessToken }), { fetch: malformed.fetch });
    await expect(client.auth.me()).rejects.toBeInstanceOf(ResponseValidationError);
    await expect(client.system.health()).rejects.toBeInstanceOf(ResponseValidationError);

    const lenient = clientFor(memoryTokenStore({ accessToken: user.accessToken }), {
      fetch: malformed.fetch,
      validateResponse: false,
    });
    const reply = await lenient.system.health();
    expect(reply.body).toEqual({ status: 'fine' });
  });

  it('rejects an error reply outside the error envelope, and a status the contract does not declare', async () => {
    const client = createRiffClient({
      baseUrl: server.baseUrl,
      fetch: async (input) =>
        String(input).includes('check-username') ? json(400, { error: 'nope' }) : json(418, { success: false }),
    });
    await expect(client.auth.checkUsername({ query: { username: 'somebody' } })).rejects.toBeInstanceOf(
      ResponseValidationError,
    );
    await expect(client.system.health()).rejects.toThrow(/418/);
  });
});

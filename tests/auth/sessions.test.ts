import { describe, expect, it } from 'vitest';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { api, request } from '../support/http.js';
import { signedInOverHttp, signedInUser } from '../support/accounts.js';
import { startTestServer } from '../support/test-server.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const cookieOf = (reply: { headers: Headers }) =>
  /refresh_token=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1];

describe('refresh rotation', () => {
  it('returns a new pair on every refresh; the new access token works', async () => {
    const user = await signedInUser(suite.server);
    const first = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
    });
    expect(first.body.refresh_token).not.toBe(user.refreshToken);
    expect(decodeURIComponent(cookieOf(first) ?? '')).toBe(first.body.refresh_token);

    const me = await suite.http.get('/auth/me', { token: first.body.access_token });
    expect(me.status).toBe(200);

    const second = await suite.http.post('/auth/refresh', { body: { refresh_token: first.body.refresh_token } });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
  });

  it('refuses unknown, malformed and tampered tokens with 401', async () => {
    const user = await signedInUser(suite.server);
    const [id, secret] = user.refreshToken.split('.') as [string, string];
    for (const token of ['nope', 'a.b', `${id}.${secret.slice(0, -1)}x`, `${id}.${secret}.extra`]) {
      const reply = await suite.http.post('/auth/refresh', { body: { refresh_token: token } });
      expect(reply.status).toBe(401);
      expect(reply.body.success).toBe(false);
    }
    const missing = await suite.http.post('/auth/refresh', { body: {} });
    expect(missing.status).toBe(400);
  });

  it('takes the token from the cookie only with an allowed Origin (CSRF check)', async () => {
    const user = await signedInUser(suite.server);
    const cookie = `refresh_token=${encodeURIComponent(user.refreshToken)}`;
    const noOrigin = await suite.http.post('/auth/refresh', { headers: { cookie } });
    expect(noOrigin.status).toBe(403);
    expect(noOrigin.body.error.code).toBe('FORBIDDEN');
    const foreign = await suite.http.post('/auth/refresh', { headers: { cookie, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    const own = await suite.http.post('/auth/refresh', { headers: { cookie, origin: suite.server.origin } });
    expect(own.status).toBe(200);
    expect(own.body.refresh_token).not.toBe(user.refreshToken);
  });

  it('accepts an origin listed in CORS_ORIGINS and answers its preflight', async () => {
    const other = await startTestServer({ CORS_ORIGINS: 'https://app.riff.example' });
    try {
      const user = await signedInUser(other);
      const reply = await api(other.baseUrl).post('/auth/refresh', {
        headers: {
          cookie: `refresh_token=${encodeURIComponent(user.refreshToken)}`,
          origin: 'https://app.riff.example',
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('access-control-allow-origin')).toBe('https://app.riff.example');
      expect(reply.headers.get('access-control-allow-credentials')).toBe('true');
      const preflight = await request(other.baseUrl, 'OPTIONS', '/api/v1/auth/refresh', {
        headers: { origin: 'https://app.riff.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
    } finally {
      await other.close();
    }
  });

  it('sets a Secure cookie when PUBLIC_BASE_URL is https', async () => {
    const secure = await startTestServer({ PUBLIC_BASE_URL: 'https://riff.example' });
    try {
      const user = await signedInOverHttp(secure);
      expect(user.reply.headers.get('set-cookie')).toContain('Secure');
    } finally {
      await secure.close();
    }
  });

  it('remember_me makes the refresh cookie live 30 days instead of 7', async () => {
    const user = await signedInOverHttp(suite.server);
    const short = user.reply.headers.get('set-cookie') ?? '';
    const long = await suite.http.post('/auth/login', {
      body: { email: user.email, password: user.password, remember_me: true },
    });
    const maxAge = (header: string) => Number(/Max-Age=(\d+)/.exec(header)?.[1]);
    expect(maxAge(short)).toBe(7 * 24 * 3600);
    expect(maxAge(long.headers.get('set-cookie') ?? '')).toBe(30 * 24 * 3600);
  });
});

describe('logout', () => {
  it('revokes the family and clears the cookie; needs a bearer token', async () => {
    const user = await signedInUser(suite.server);
    const anonymous = await suite.http.post('/auth/logout', { body: { refresh_token: user.refreshToken } });
    expect(anonymous.status).toBe(401);

    const reply = await suite.http.post('/auth/logout', {
      token: user.accessToken,
      body: { refresh_token: user.refreshToken },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, data: { message: expect.any(String) } });
    expect(reply.headers.get('set-cookie')).toMatch(/refresh_token=;.*Expires=Thu, 01 Jan 1970/);

    const refresh = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refresh.status).toBe(401);
  });

  it('takes the token from the cookie with the Origin check', async () => {
    const user = await signedInUser(suite.server);
    const cookie = `refresh_token=${encodeURIComponent(user.refreshToken)}`;
    const forged = await suite.http.post('/auth/logout', {
      token: user.accessToken,
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    const reply = await suite.http.post('/auth/logout', {
      token: user.accessToken,
      headers: { cookie, origin: suite.server.origin },
    });
    expect(reply.status).toBe(200);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status).toBe(401);
  });

  it('cannot end another user’s session', async () => {
    const alice = await signedInUser(suite.server);
    const mallory = await signedInUser(suite.server);
    const reply = await suite.http.post('/auth/logout', {
      token: mallory.accessToken,
      body: { refresh_token: alice.refreshToken },
    });
    expect(reply.status).toBe(200);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: alice.refreshToken } })).status).toBe(200);
  });
});

describe('access, stream and chat tokens', () => {
  it('are EdDSA JWTs verifiable from the JWKS, each with its own audience', async () => {
    const user = await signedInUser(suite.server);
    const jwks = await request(suite.server.baseUrl, 'GET', '/.well-known/jwks.json');
    expect(jwks.status).toBe(200);
    const keySet = createLocalJWKSet(jwks.body);

    const access = await jwtVerify(user.accessToken, keySet, { audience: 'api' });
    expect(access.payload.sub).toBe(user.id);
    expect(access.payload.tv).toBe(0);
    expect(access.payload.exp! - access.payload.iat!).toBe(900);
    expect(access.protectedHeader.alg).toBe('EdDSA');

    const stream = await suite.http.post('/auth/stream-token', { token: user.accessToken });
    expect(stream.status).toBe(200);
    expect(stream.body).toEqual({ token: expect.any(String), expires_in: 300 });
    const streamClaims = await jwtVerify(stream.body.token, keySet, { audience: 'stream' });
    expect(streamClaims.payload.exp! - streamClaims.payload.iat!).toBe(300);

    const chat = await suite.http.get('/chat/token', { token: user.accessToken });
    expect(chat.status).toBe(200);
    expect(chat.body.success).toBe(true);
    const chatClaims = await jwtVerify(chat.body.data.token, keySet, { audience: 'chat' });
    expect(chatClaims.payload.exp! - chatClaims.payload.iat!).toBe(600);
  });

  it('a stream or chat token is refused where an access token is needed', async () => {
    const user = await signedInUser(suite.server);
    const stream = (await suite.http.post('/auth/stream-token', { token: user.accessToken })).body.token;
    const chat = (await suite.http.get('/chat/token', { token: user.accessToken })).body.data.token;
    for (const token of [stream, chat]) {
      const me = await suite.http.get('/auth/me', { token });
      expect(me.status).toBe(401);
      expect(me.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('a token signed by another key is refused', async () => {
    const other = await startTestServer();
    try {
      const stranger = await signedInUser(other);
      const reply = await suite.http.get('/auth/me', { token: stranger.accessToken });
      expect(reply.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('a malformed Authorization header is 401', async () => {
    const reply = await suite.http.get('/auth/me', { headers: { authorization: 'Token abc' } });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('UNAUTHENTICATED');
  });
});

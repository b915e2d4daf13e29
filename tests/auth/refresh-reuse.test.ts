import { afterEach, describe, expect, it } from 'vitest';
import { signedInUser } from '../support/accounts.js';
import { api } from '../support/http.js';
import { startTestServer } from '../support/test-server.js';
import { useTestServer } from '../support/suite.js';
import { ConfigError, loadConfig } from '../../server/src/platform/config/config.js';

// the service's clock moves on demand (the 30-second reuse grace); no test waits for it
let offsetMs = 0;
const suite = useTestServer({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
afterEach(() => {
  offsetMs = 0;
});

const cookieOf = (reply: { headers: Headers }) =>
  decodeURIComponent(/refresh_token=([^;]*)/.exec(reply.headers.get('set-cookie') ?? '')?.[1] ?? '');
const refresh = (token: string) => suite.http.post('/auth/refresh', { body: { refresh_token: token } });
const reuseLogs = (userId: string) =>
  suite.server.riff.database.db
    .selectFrom('audit_logs')
    .select('action')
    .where('user_id', '=', userId)
    .where('action', '=', 'auth.refresh_reuse_detected')
    .execute();

describe('refresh token reuse grace', () => {
  it('a rotated token presented again within the grace gets the same successor and a working access token', async () => {
    const user = await signedInUser(suite.server);
    const first = await refresh(user.refreshToken);
    expect(first.status).toBe(200);
    const successor = first.body.refresh_token as string;

    offsetMs = 29_000;
    const again = await refresh(user.refreshToken);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      access_token: expect.any(String),
      refresh_token: successor,
      token_type: 'Bearer',
      expires_in: 900,
    });
    expect(cookieOf(again)).toBe(successor);
    expect((await suite.http.get('/auth/me', { token: again.body.access_token })).status).toBe(200);

    // the family lives on: the successor rotates normally
    const next = await refresh(successor);
    expect(next.status).toBe(200);
    expect(next.body.refresh_token).not.toBe(successor);
    expect(await reuseLogs(user.id)).toHaveLength(0);
  });

  it('two refreshes at the same moment with the same token both succeed with the same refresh token', async () => {
    const user = await signedInUser(suite.server);
    const cookie = `refresh_token=${encodeURIComponent(user.refreshToken)}`;
    // two tabs: the same cookie, sent at once
    const replies = await Promise.all(
      [0, 1, 2].map(() => suite.http.post('/auth/refresh', { headers: { cookie, origin: suite.server.origin } })),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    const tokens = new Set(replies.map((reply) => reply.body.refresh_token as string));
    expect(tokens.size).toBe(1);
    const [successor] = [...tokens] as [string];
    expect(successor).not.toBe(user.refreshToken);
    for (const reply of replies) expect(cookieOf(reply)).toBe(successor);
    for (const reply of replies)
      expect((await suite.http.get('/auth/me', { token: reply.body.access_token })).status).toBe(200);

    expect((await refresh(successor)).status).toBe(200);
    expect(await reuseLogs(user.id)).toHaveLength(0);
  });

  it('after the grace a replay answers 401 TOKEN_REUSED and revokes the whole family, the newest token included', async () => {
    const user = await signedInUser(suite.server);
    const rotated = await refresh(user.refreshToken);
    const newest = rotated.body.refresh_token as string;

    offsetMs = 31_000;
    const replay = await refresh(user.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('TOKEN_REUSED');

    offsetMs = 0;
    const afterReplay = await refresh(newest);
    expect(afterReplay.status).toBe(401);
    expect(await reuseLogs(user.id)).toHaveLength(1);
  });

  it('other logins of the same user are not affected by one family being revoked', async () => {
    const user = await signedInUser(suite.server);
    const otherLogin = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    await refresh(user.refreshToken);
    offsetMs = 31_000;
    expect((await refresh(user.refreshToken)).status).toBe(401);
    const other = await refresh(otherLogin.body.token.refresh_token);
    expect(other.status).toBe(200);
  });

  it('a token rotated twice within the grace is answered with the newest token of its family', async () => {
    const user = await signedInUser(suite.server);
    const second = (await refresh(user.refreshToken)).body.refresh_token as string;
    offsetMs = 10_000;
    const third = (await refresh(second)).body.refresh_token as string;

    offsetMs = 25_000;
    const replay = await refresh(user.refreshToken);
    expect(replay.status).toBe(200);
    expect(replay.body.refresh_token).toBe(third);

    // the first rotation's grace is over though the second's is not: the first token is now a theft
    offsetMs = 35_000;
    const late = await refresh(user.refreshToken);
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('TOKEN_REUSED');
    expect((await refresh(third)).status).toBe(401);
  });

  it('does not bring back a login that was ended within the grace', async () => {
    const user = await signedInUser(suite.server);
    const successor = (await refresh(user.refreshToken)).body.refresh_token as string;
    const logout = await suite.http.post('/auth/logout', {
      token: user.accessToken,
      body: { refresh_token: successor },
    });
    expect(logout.status).toBe(200);
    const replay = await refresh(user.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('keeps the successor sealed, never as the token itself', async () => {
    const user = await signedInUser(suite.server);
    const successor = (await refresh(user.refreshToken)).body.refresh_token as string;
    const [id] = user.refreshToken.split('.') as [string];
    const row = await suite.server.riff.database.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.successor_sealed).toEqual(expect.any(String));
    const [, secret] = successor.split('.') as [string, string];
    expect(row.successor_sealed).not.toContain(secret);
    expect(JSON.stringify(row)).not.toContain(secret);

    // once a later rotation happens past the grace, the seal is dropped
    offsetMs = 31_000;
    expect((await refresh(successor)).status).toBe(200);
    const after = await suite.server.riff.database.db
      .selectFrom('refresh_tokens')
      .select('successor_sealed')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after.successor_sealed).toBeNull();
  });
});

describe('REFRESH_REUSE_GRACE_SECONDS', () => {
  it('0 turns the grace off: an immediate replay revokes the family', async () => {
    const strict = await startTestServer({ REFRESH_REUSE_GRACE_SECONDS: '0' });
    try {
      const user = await signedInUser(strict);
      const http = api(strict.baseUrl);
      expect((await http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status).toBe(200);
      const replay = await http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe('TOKEN_REUSED');
    } finally {
      await strict.close();
    }
  });

  it('a bad value stops the start, naming the variable', () => {
    for (const value of ['soon', '-1', '301']) {
      expect(() => loadConfig({ REFRESH_REUSE_GRACE_SECONDS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ REFRESH_REUSE_GRACE_SECONDS: value })).toThrow(/REFRESH_REUSE_GRACE_SECONDS/);
    }
    expect(loadConfig({}).refreshReuseGraceMs).toBe(30_000);
    expect(loadConfig({ REFRESH_REUSE_GRACE_SECONDS: '45' }).refreshReuseGraceMs).toBe(45_000);
  });
});

import { describe, expect, it } from 'vitest';
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { signedInUser } from '../support/accounts.js';
import { createAdmin } from '../support/admin-factory.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

/** The code for the current 30 s step, or a neighbouring one (the suite.server allows one step of drift). */
const totp = (secret: string, offset = 0) =>
  generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000) + offset), 6);

async function userWithTwoFactor() {
  const user = await signedInUser(suite.server);
  const setup = await suite.http.post('/auth/2fa/setup', { token: user.accessToken });
  expect(setup.status).toBe(200);
  const { secret, recovery_codes } = setup.body.data as { secret: string; recovery_codes: string[] };
  const verify = await suite.http.post('/auth/2fa/verify', {
    token: user.accessToken,
    body: { code: totp(secret), secret },
  });
  expect(verify.status).toBe(200);
  return { ...user, secret, recoveryCodes: recovery_codes };
}

async function challenge(user: { email: string; password: string }) {
  const reply = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
  expect(reply.status).toBe(200);
  expect(reply.body).toEqual({
    requires_2fa: true,
    two_factor_token: expect.any(String),
    user: expect.objectContaining({ email: user.email }),
  });
  expect(reply.body.token).toBeUndefined();
  expect(reply.headers.get('set-cookie')).toBeNull();
  return reply.body.two_factor_token as string;
}

describe('2FA setup', () => {
  it('setup → verify → status; the secret is shown only at setup and never stored in the clear', async () => {
    const user = await signedInUser(suite.server);
    expect((await suite.http.get('/auth/2fa/status', { token: user.accessToken })).body).toEqual({
      success: true,
      data: { enabled: false },
    });

    const setup = await suite.http.post('/auth/2fa/setup', { token: user.accessToken });
    const data = setup.body.data;
    expect(data.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(data.qr_code_url).toMatch(/^otpauth:\/\/totp\/Riff:/);
    expect(data.qr_code_url).toContain(`secret=${data.secret}`);
    expect(data.recovery_codes).toHaveLength(10);
    expect(new Set(data.recovery_codes).size).toBe(10);

    // not on until verified
    expect((await suite.http.get('/auth/2fa/status', { token: user.accessToken })).body.data.enabled).toBe(false);
    const wrong = await suite.http.post('/auth/2fa/verify', {
      token: user.accessToken,
      body: { code: '000000', secret: data.secret },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('INVALID_CODE');
    const otherSecret = await suite.http.post('/auth/2fa/verify', {
      token: user.accessToken,
      body: { code: totp(data.secret), secret: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(otherSecret.status).toBe(400);

    const ok = await suite.http.post('/auth/2fa/verify', {
      token: user.accessToken,
      body: { code: totp(data.secret), secret: data.secret },
    });
    expect(ok.status).toBe(200);
    expect((await suite.http.get('/auth/2fa/status', { token: user.accessToken })).body.data.enabled).toBe(true);

    const again = await suite.http.post('/auth/2fa/setup', { token: user.accessToken });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('TWO_FACTOR_ALREADY_ENABLED');
    expect(again.text).not.toContain(data.secret);

    const row = await suite.server.riff.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(data.secret);
    const codes = await suite.server.riff.database.db
      .selectFrom('two_factor_recovery_codes')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(codes).toHaveLength(10);
    for (const code of data.recovery_codes) expect(JSON.stringify(codes)).not.toContain(code);
  });
});

describe('2FA login', () => {
  it('login answers requires_2fa; /auth/2fa/login with a TOTP code gives the token pair', async () => {
    const user = await userWithTwoFactor();
    const token = await challenge(user);
    const reply = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: token, code: totp(user.secret, 1) },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ requires_2fa: false, token: { token_type: 'Bearer', expires_in: 900 } });
    expect(reply.headers.get('set-cookie')).toMatch(/^refresh_token=/);
    expect((await suite.http.get('/auth/me', { token: reply.body.token.access_token })).status).toBe(200);

    // the two_factor_token is single use
    const reuse = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: token, code: totp(user.secret, 1) },
    });
    expect(reuse.status).toBe(401);
  });

  it('refuses a TOTP code that was already accepted (replay)', async () => {
    const user = await userWithTwoFactor();
    const code = totp(user.secret, 1);
    const first = await suite.http.post('/auth/2fa/login', { body: { two_factor_token: await challenge(user), code } });
    expect(first.status).toBe(200);
    const replay = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: await challenge(user), code },
    });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('accepts a recovery code once', async () => {
    const user = await userWithTwoFactor();
    const code = user.recoveryCodes[3]!;
    const first = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: await challenge(user), code: code.toUpperCase() },
    });
    expect(first.status).toBe(200);
    const again = await suite.http.post('/auth/2fa/login', { body: { two_factor_token: await challenge(user), code } });
    expect(again.status).toBe(401);
  });

  it('five wrong codes lock 2FA login for 15 minutes, even for a right code', async () => {
    const user = await userWithTwoFactor();
    const token = await challenge(user);
    for (let attempt = 0; attempt < 5; attempt++) {
      const wrong = await suite.http.post('/auth/2fa/login', {
        body: { two_factor_token: token, code: 'zzzzz-zzzzz' },
      });
      expect(wrong.status).toBe(401);
    }
    const locked = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: token, code: totp(user.secret, 1) },
    });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(14 * 60);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it('an unknown two_factor_token is 401', async () => {
    const reply = await suite.http.post('/auth/2fa/login', { body: { two_factor_token: 'nope', code: '123456' } });
    expect(reply.status).toBe(401);
  });
});

describe('2FA disable', () => {
  it('needs the password, turns 2FA off and refuses older access tokens', async () => {
    const user = await userWithTwoFactor();
    const wrong = await suite.http.post('/auth/2fa/disable', {
      token: user.accessToken,
      body: { password: 'not my password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe('INVALID_PASSWORD');

    const ok = await suite.http.post('/auth/2fa/disable', {
      token: user.accessToken,
      body: { password: user.password },
    });
    expect(ok.status).toBe(200);

    const stale = await suite.http.get('/auth/me', { token: user.accessToken });
    expect(stale.status).toBe(401);

    // the session itself goes on: a refresh mints a token with the new version
    const refreshed = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refreshed.status).toBe(200);
    const status = await suite.http.get('/auth/2fa/status', { token: refreshed.body.access_token });
    expect(status.body.data.enabled).toBe(false);

    const login = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    expect(login.body.requires_2fa).toBe(false);

    const notOn = await suite.http.post('/auth/2fa/disable', {
      token: refreshed.body.access_token,
      body: { password: user.password },
    });
    expect(notOn.status).toBe(400);
    expect(notOn.body.error.code).toBe('TWO_FACTOR_NOT_ENABLED');
  });

  it('records 2FA changes in the audit log', async () => {
    const user = await userWithTwoFactor();
    await suite.http.post('/auth/2fa/disable', { token: user.accessToken, body: { password: user.password } });
    const actions = (
      await suite.server.riff.database.db
        .selectFrom('audit_logs')
        .select('action')
        .where('user_id', '=', user.id)
        .orderBy('created_at')
        .execute()
    ).map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'auth.register',
        'auth.email_verified',
        'auth.login',
        'auth.2fa_enabled',
        'auth.2fa_disabled',
      ]),
    );
  });
});

describe('2FA and sanctions', () => {
  it('an account suspended between the password and the code is told so at the code step', async () => {
    const user = await userWithTwoFactor();
    const token = await challenge(user);
    const admin = await createAdmin(suite.server);
    const until = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const suspended = await suite.http.post(`/admin/users/${user.id}/suspend`, {
      token: admin.accessToken,
      body: { reason: 'Spam', until },
    });
    expect(suspended.status).toBe(201);
    const reply = await suite.http.post('/auth/2fa/login', {
      body: { two_factor_token: token, code: totp(user.secret) },
    });
    expect([reply.status, reply.body.error.code]).toEqual([401, 'ACCOUNT_SUSPENDED']);
    expect(reply.body.error.details[0]).toMatchObject({ field: 'until' });
  });
});

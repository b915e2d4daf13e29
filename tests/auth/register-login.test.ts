import { describe, expect, it } from 'vitest';
import { login, newIdentity, register, signedInUser, verify } from '../support/accounts.js';
import { expireEmailToken } from '../support/backdate.js';
import { readOutbox, tokenFromMail, waitForMail } from '../support/mail.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

describe('registration', () => {
  it('creates an unverified account, issues no tokens and mails a verification link', async () => {
    const identity = newIdentity();
    const reply = await suite.http.post('/auth/register', {
      body: { ...identity, password_confirmation: identity.password },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      user: { id: expect.any(String), username: identity.username, email: identity.email },
      verification_required: true,
      message: expect.any(String),
    });
    expect(reply.text).not.toMatch(/access_token|refresh_token/);
    expect(reply.headers.get('set-cookie')).toBeNull();

    const mail = await waitForMail(suite.server.outboxDir, identity.email, 'verify-email');
    expect(mail.subject).toMatch(/verify|confirm/i);
    expect(mail.text).toContain('token=');
    expect(mail.html).toContain('<a href=');
    expect(mail.file).toMatch(/^\d+-verify-email\.json$/);
    expect(Date.parse(mail.created_at)).not.toBeNaN();
  });

  it('refuses a password shorter than 12 characters, mismatched confirmation, and a bad email', async () => {
    const short = await suite.http.post('/auth/register', {
      body: { email: 'x@example.test', password: 'short', password_confirmation: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.error.code).toBe('VALIDATION_FAILED');
    expect(short.body.error.details).toContainEqual(expect.objectContaining({ field: 'password' }));

    const mismatch = await suite.http.post('/auth/register', {
      body: { email: 'y@example.test', password: 'a long password 1', password_confirmation: 'a long password 2' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details).toContainEqual(expect.objectContaining({ field: 'password_confirmation' }));

    const badEmail = await suite.http.post('/auth/register', {
      body: { email: 'nope', password: 'a long password 1', password_confirmation: 'a long password 1' },
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error.details[0].field).toBe('email');
  });

  it('answers 409 for an email or username that exists, ignoring case', async () => {
    const user = await register(suite.server);
    const sameEmail = await suite.http.post('/auth/register', {
      body: {
        email: user.email.toUpperCase(),
        username: `${user.username}x`,
        password: user.password,
        password_confirmation: user.password,
      },
    });
    expect(sameEmail.status).toBe(409);
    expect(sameEmail.body.error.code).toBe('CONFLICT');
    const sameName = await suite.http.post('/auth/register', {
      body: {
        email: `other-${user.email}`,
        username: user.username.toUpperCase(),
        password: user.password,
        password_confirmation: user.password,
      },
    });
    expect(sameName.status).toBe(409);
  });

  it('reports whether a username is available', async () => {
    const user = await register(suite.server);
    const taken = await suite.http.get(`/auth/check-username?username=${user.username.toUpperCase()}`);
    expect(taken.status).toBe(200);
    expect(taken.body).toEqual({ success: true, data: { available: false, username: user.username.toUpperCase() } });
    const free = await suite.http.get('/auth/check-username?username=nobody_has_this');
    expect(free.body.data.available).toBe(true);
    const missing = await suite.http.get('/auth/check-username');
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('email verification', () => {
  it('refuses login with 401 EMAIL_NOT_VERIFIED until the address is verified', async () => {
    const user = await register(suite.server);
    const before = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    expect(before.status).toBe(401);
    expect(before.body.error.code).toBe('EMAIL_NOT_VERIFIED');
    await verify(suite.server, user.email);
    const after = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    expect(after.status).toBe(200);
  });

  it('accepts a token once; a used, unknown or superseded token is 400 INVALID_TOKEN', async () => {
    const user = await register(suite.server);
    const first = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'verify-email'));
    // a resend invalidates the first link
    await new Promise((resolve) => setTimeout(resolve, 1));
    const resent = await suite.http.post('/auth/resend-verification', { body: { email: user.email } });
    expect(resent.status).toBe(200);
    const second = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'verify-email', 1));
    expect(second).not.toBe(first);

    const stale = await suite.http.post('/auth/verify-email', { headers: { 'x-verify-token': first } });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe('INVALID_TOKEN');

    const ok = await suite.http.post('/auth/verify-email', { headers: { 'x-verify-token': second } });
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);
    expect(ok.headers.get('deprecation')).toBeNull();

    const again = await suite.http.post('/auth/verify-email', { headers: { 'x-verify-token': second } });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVALID_TOKEN');

    const none = await suite.http.post('/auth/verify-email');
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('INVALID_TOKEN');
  });

  it('a verification link stops working after 24 hours', async () => {
    const user = await register(suite.server);
    const token = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'verify-email'));
    const row = await suite.server.riff.database.db
      .selectFrom('email_tokens')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    const lifetimeHours = (row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000;
    expect(Math.round(lifetimeHours)).toBe(24);
    expect(row.token_hash).not.toBe(token);
    await expireEmailToken(suite.server, row.id);
    const reply = await suite.http.post('/auth/verify-email', { headers: { 'x-verify-token': token } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_TOKEN');
  });

  it('still accepts the deprecated query parameter, with a Deprecation header', async () => {
    const user = await register(suite.server);
    const token = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'verify-email'));
    const reply = await suite.http.post(`/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('deprecation')).toBe('true');
  });

  it('answers resend-verification the same for unknown, verified and unverified addresses', async () => {
    const verified = await signedInUser(suite.server);
    const unverified = await register(suite.server);
    const replies = await Promise.all(
      ['nobody@example.test', verified.email, unverified.email].map((email) =>
        suite.http.post('/auth/resend-verification', { body: { email } }),
      ),
    );
    for (const reply of replies) expect(reply.status).toBe(200);
    expect(new Set(replies.map((reply) => JSON.stringify(reply.body))).size).toBe(1);
    const mails = (await readOutbox(suite.server.outboxDir)).filter(
      (mail) => mail.to === verified.email && mail.template === 'verify-email',
    );
    expect(mails).toHaveLength(1);
  });
});

describe('login', () => {
  it('returns the access token in the body and sets the refresh cookie as ADDENDUM says', async () => {
    const user = await register(suite.server);
    await verify(suite.server, user.email);
    const { reply } = await login(suite.server, user);
    expect(reply.body).toEqual({
      requires_2fa: false,
      user: { id: user.id, username: user.username, email: user.email },
      token: {
        access_token: expect.any(String),
        refresh_token: expect.stringMatching(/^\w+\.\w+$/),
        token_type: 'Bearer',
        expires_in: 900,
      },
    });
    const cookie = reply.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^refresh_token=[^;]+/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/api/v1/auth');
    expect(cookie).not.toContain('Secure');
    expect(cookie).toContain(`refresh_token=${encodeURIComponent(reply.body.token.refresh_token)}`);
  });

  it('answers 401 INVALID_CREDENTIALS for a wrong password or an unknown email, alike', async () => {
    const user = await register(suite.server);
    await verify(suite.server, user.email);
    const wrong = await suite.http.post('/auth/login', { body: { email: user.email, password: 'not the password' } });
    const unknown = await suite.http.post('/auth/login', {
      body: { email: 'ghost@example.test', password: 'not the password' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(unknown.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
  });

  it('shows the current user at /auth/me without secrets', async () => {
    const user = await signedInUser(suite.server);
    const me = await suite.http.get('/auth/me', { token: user.accessToken });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({
      id: user.id,
      email: user.email,
      username: user.username,
      is_verified: true,
      login_count: 1,
    });
    expect(me.text).not.toMatch(/password_hash|two_factor_secret|\$argon2/);
    const anonymous = await suite.http.get('/auth/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    const garbage = await suite.http.get('/auth/me', { token: 'a.b.c' });
    expect(garbage.status).toBe(401);
  });
});

import { describe, expect, it } from 'vitest';
import { login, signedInUser } from '../support/accounts.js';
import { readOutbox, waitForMail } from '../support/mail.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const NEW_PASSWORD = 'a changed password 2026';

const change = (token: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  suite.http.post('/auth/password/change', { token, body, headers });

describe('POST /auth/password/change', () => {
  it('a wrong current password is 400 INVALID_PASSWORD and changes nothing', async () => {
    const user = await signedInUser(suite.server);
    const reply = await change(user.accessToken, {
      current_password: 'not my password!',
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_PASSWORD');
    expect(reply.body.error.details[0].field).toBe('current_password');
    expect((await suite.http.get('/auth/me', { token: user.accessToken })).status).toBe(200);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status).toBe(200);
    expect(
      (await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } })).status,
    ).toBe(200);
  });

  it.each([
    [
      'a confirmation that differs',
      { password: NEW_PASSWORD, password_confirmation: `${NEW_PASSWORD}!` },
      'password_confirmation',
    ],
    ['a password under 12 characters', { password: 'short pass', password_confirmation: 'short pass' }, 'password'],
    [
      'the same password again',
      { password: 'correct horse battery staple', password_confirmation: 'correct horse battery staple' },
      'password',
    ],
    [
      'no current password',
      { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD, current_password: '' },
      'current_password',
    ],
  ])('%s is 400 VALIDATION_FAILED naming the field', async (_name, fields, field) => {
    const user = await signedInUser(suite.server);
    const reply = await change(user.accessToken, { current_password: user.password, ...fields });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('VALIDATION_FAILED');
    expect(reply.body.error.details.map((issue: { field: string }) => issue.field)).toContain(field);
  });

  it('sets the password, ends every session and access token, mails the user and writes an audit entry', async () => {
    const user = await signedInUser(suite.server);
    const other = await login(suite.server, user);
    const reply = await change(user.accessToken, {
      current_password: user.password,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, data: { message: expect.stringMatching(/Password changed/) } });

    expect((await suite.http.get('/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await suite.http.get('/auth/me', { token: other.accessToken })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: other.refreshToken } })).status).toBe(401);
    expect(
      (await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } })).status,
    ).toBe(401);
    const fresh = await login(suite.server, { email: user.email, password: NEW_PASSWORD });

    const mail = await waitForMail(suite.server.outboxDir, user.email, 'password-changed');
    expect(mail.subject).toMatch(/password was changed/i);
    expect(mail.text).not.toContain(NEW_PASSWORD);
    const audit = await suite.http.get('/audit/logs?action=auth.password_changed', { token: fresh.accessToken });
    expect(audit.body.data.logs).toHaveLength(1);
    const me = await suite.http.get('/auth/me', { token: fresh.accessToken });
    expect(me.body.data.token_version).toBe(1);
  });

  it('the caller’s browser session (its refresh cookie) continues; every other one ends', async () => {
    const user = await signedInUser(suite.server);
    const other = await login(suite.server, user);
    const cookie = `refresh_token=${encodeURIComponent(user.refreshToken)}`;
    const reply = await change(
      user.accessToken,
      { current_password: user.password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      { cookie },
    );
    expect(reply.status).toBe(200);
    expect((await suite.http.get('/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: other.refreshToken } })).status).toBe(401);
    const continued = await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(continued.status).toBe(200);
    expect((await suite.http.get('/auth/me', { token: continued.body.access_token })).status).toBe(200);
  });

  it('needs a bearer access token: none, or an API key, is 401', async () => {
    const user = await signedInUser(suite.server);
    const body = { current_password: user.password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
    expect((await suite.http.post('/auth/password/change', { body })).status).toBe(401);
    const key = `riff_${'k'.repeat(40)}`;
    expect(
      (await suite.http.post('/auth/password/change', { body, headers: { authorization: `Bearer ${key}` } })).status,
    ).toBe(401);
    expect(
      (await suite.http.post('/auth/password/change', { body, token: user.accessToken, headers: { 'x-api-key': key } }))
        .status,
    ).toBe(401);
    expect(
      (await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } })).status,
    ).toBe(200);
    expect(
      (await readOutbox(suite.server.outboxDir)).some(
        (mail) => mail.to === user.email && mail.template === 'password-changed',
      ),
    ).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { register, signedInUser } from '../support/accounts.js';
import { expirePasswordResetTokens } from '../support/backdate.js';
import { readOutbox, tokenFromMail, waitForMail } from '../support/mail.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();

const NEW_PASSWORD = 'a brand new password 42';

describe('password reset', () => {
  it('answers the same bytes for known and unknown addresses, and mails only the known one', async () => {
    const user = await signedInUser(suite.server);
    const known = await suite.http.post('/auth/password/reset-request', { body: { email: user.email } });
    const unknown = await suite.http.post('/auth/password/reset-request', {
      body: { email: 'nobody-here@example.test' },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.text).toBe(unknown.text);
    const mail = await waitForMail(suite.server.outboxDir, user.email, 'password-reset');
    expect(mail.text).toMatch(/reset-password\?token=/);
    expect((await readOutbox(suite.server.outboxDir)).some((m) => m.to === 'nobody-here@example.test')).toBe(false);
  });

  it('sends at most one mail per address per minute', async () => {
    const user = await signedInUser(suite.server);
    for (let i = 0; i < 3; i++) {
      const reply = await suite.http.post('/auth/password/reset-request', { body: { email: user.email } });
      expect(reply.status).toBe(200);
    }
    await waitForMail(suite.server.outboxDir, user.email, 'password-reset');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mails = (await readOutbox(suite.server.outboxDir)).filter(
      (m) => m.to === user.email && m.template === 'password-reset',
    );
    expect(mails).toHaveLength(1);
  });

  it('sets the new password, revokes every session and refuses older access tokens', async () => {
    const user = await signedInUser(suite.server);
    const secondSession = await suite.http.post('/auth/login', {
      body: { email: user.email, password: user.password },
    });
    await suite.http.post('/auth/password/reset-request', { body: { email: user.email } });
    const token = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'password-reset'));

    const mismatch = await suite.http.post('/auth/password/reset', {
      body: { token, password: NEW_PASSWORD, password_confirmation: 'different password 1' },
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe('VALIDATION_FAILED');
    const short = await suite.http.post('/auth/password/reset', {
      body: { token, password: 'short', password_confirmation: 'short' },
    });
    expect(short.status).toBe(400);

    const reset = await suite.http.post('/auth/password/reset', {
      body: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.success).toBe(true);

    expect((await suite.http.get('/auth/me', { token: user.accessToken })).status).toBe(401);
    expect((await suite.http.post('/auth/refresh', { body: { refresh_token: user.refreshToken } })).status).toBe(401);
    expect(
      (await suite.http.post('/auth/refresh', { body: { refresh_token: secondSession.body.token.refresh_token } }))
        .status,
    ).toBe(401);

    expect(
      (await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } })).status,
    ).toBe(401);
    expect((await suite.http.post('/auth/login', { body: { email: user.email, password: NEW_PASSWORD } })).status).toBe(
      200,
    );

    const reuse = await suite.http.post('/auth/password/reset', {
      body: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(reuse.status).toBe(400);
    expect(reuse.body.error.code).toBe('INVALID_TOKEN');
  });

  it('an unknown token is 400 INVALID_TOKEN and changes nothing', async () => {
    const reply = await suite.http.post('/auth/password/reset', {
      body: { token: 'not-a-token', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('INVALID_TOKEN');
  });

  it('reset tokens are stored hashed and stop working once expired', async () => {
    const user = await register(suite.server);
    await suite.http.post('/auth/password/reset-request', { body: { email: user.email } });
    const first = tokenFromMail(await waitForMail(suite.server.outboxDir, user.email, 'password-reset'));
    const stored = await suite.server.riff.database.db
      .selectFrom('email_tokens')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(JSON.stringify(stored)).not.toContain(first);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);

    // an hour passes
    await expirePasswordResetTokens(suite.server, user.id);
    const expired = await suite.http.post('/auth/password/reset', {
      body: { token: first, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.error.code).toBe('INVALID_TOKEN');
  });
});

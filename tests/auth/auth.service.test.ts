import { describe, expect, it } from 'vitest';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { newIdentity } from '../support/accounts.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { refusal } from '../support/refusal.js';
import { serviceUnverifiedUser, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of accounts and sign-in, called on the auth service: who may register, when a link is
// good, what a wrong password costs. tests/auth/*.test.ts hold the routes, cookies and replies.
// the services' clock moves on demand (a link's expiry); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const HOUR = 60 * 60 * 1000;
const anyone = anonymousActor({ ip: '192.0.2.10', userAgent: 'service tests', requestId: null });

/** The link token of the newest mail of `template` to `email`, once the queue has sent it. */
async function mailedToken(email: string, template: 'verify-email' | 'password-reset', after = 0) {
  await suite.platform.jobs.runDue();
  return tokenFromMail(await waitForMail(suite.outboxDir, email, template, after));
}

async function withClockMovedBy<T>(ms: number, work: () => Promise<T>): Promise<T> {
  offsetMs = ms;
  try {
    return await work();
  } finally {
    offsetMs = 0;
  }
}

describe('auth (service)', () => {
  it('takes each email once, compared without case, and each username once', async () => {
    const { auth } = suite.areas.auth.services;
    const first = await serviceUnverifiedUser(suite);
    const again = { ...newIdentity(), email: first.email.toUpperCase() };
    expect(await refusal(auth.register(anyone, again))).toMatchObject({ status: 409, code: 'CONFLICT' });
    expect(await refusal(auth.register(anyone, { ...newIdentity(), username: first.username }))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    expect(await auth.checkUsername(first.username)).toEqual({ available: false, username: first.username });
  });

  it('an account signs in only once its link is followed, and the link works once', async () => {
    const { auth } = suite.areas.auth.services;
    const user = await serviceUnverifiedUser(suite);
    const credentials = { email: user.email, password: user.password };
    expect(await refusal(auth.login(anyone, credentials))).toMatchObject({ code: 'EMAIL_NOT_VERIFIED' });
    const token = await mailedToken(user.email, 'verify-email');
    await auth.verifyEmail(anyone, token);
    expect(await refusal(auth.verifyEmail(anyone, token))).toMatchObject({ status: 400, code: 'INVALID_TOKEN' });
    const signedIn = await auth.login(anyone, credentials);
    expect(signedIn).toMatchObject({ requires_2fa: false, user: { id: user.id, email: user.email } });
  });

  it('a verification link is good for 24 hours', async () => {
    const { auth } = suite.areas.auth.services;
    const late = await serviceUnverifiedUser(suite);
    const lateToken = await mailedToken(late.email, 'verify-email');
    await withClockMovedBy(24 * HOUR + 60_000, async () => {
      expect(await refusal(auth.verifyEmail(anyone, lateToken))).toMatchObject({ code: 'INVALID_TOKEN' });
    });
    const inTime = await serviceUnverifiedUser(suite);
    const inTimeToken = await mailedToken(inTime.email, 'verify-email');
    await withClockMovedBy(23 * HOUR, () => auth.verifyEmail(anyone, inTimeToken));
    expect(await auth.login(anyone, { email: inTime.email, password: inTime.password })).toMatchObject({
      requires_2fa: false,
    });
  });

  it('an unknown email and a wrong password are refused alike; five wrong passwords stop sign-in from that address', async () => {
    const { auth } = suite.areas.auth.services;
    const user = await serviceUser(suite);
    const invalid = { status: 401, code: 'INVALID_CREDENTIALS' };
    expect(await refusal(auth.login(anyone, { email: `nobody-${user.email}`, password: user.password }))).toEqual({
      ...invalid,
      fields: [],
    });
    for (let i = 0; i < 5; i++)
      expect(await refusal(auth.login(anyone, { email: user.email, password: 'not the password' }))).toMatchObject(
        invalid,
      );
    // the right password no longer helps from here, but another address may still sign in
    expect(await refusal(auth.login(anyone, { email: user.email, password: user.password }))).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
    const elsewhere = anonymousActor({ ip: '198.51.100.7', userAgent: 'service tests', requestId: null });
    expect(await auth.login(elsewhere, { email: user.email, password: user.password })).toMatchObject({
      requires_2fa: false,
    });
  });

  it('a reset link sets a new password once and ends every session; an unknown email gets the same answer', async () => {
    const { auth } = suite.areas.auth.services;
    const user = await serviceUser(suite);
    const before = await auth.login(anyone, { email: user.email, password: user.password });
    if (before.requires_2fa) throw new Error('unexpected two-factor sign-in');
    const asked = await auth.requestPasswordReset(anyone, user.email);
    expect(await auth.requestPasswordReset(anyone, `nobody-${user.email}`)).toEqual(asked);
    const token = await mailedToken(user.email, 'password-reset');
    await auth.resetPassword(anyone, { token, password: 'a brand new passphrase' });
    expect(await refusal(auth.resetPassword(anyone, { token, password: 'yet another one' }))).toMatchObject({
      code: 'INVALID_TOKEN',
    });
    expect(await refusal(auth.refresh(anyone, before.session.refresh_token))).toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(await refusal(auth.login(anyone, { email: user.email, password: user.password }))).toMatchObject({
      code: 'INVALID_CREDENTIALS',
    });
    expect(await auth.login(anyone, { email: user.email, password: 'a brand new passphrase' })).toMatchObject({
      requires_2fa: false,
    });
  });

  it('a reset link is good for an hour', async () => {
    const { auth } = suite.areas.auth.services;
    const user = await serviceUser(suite);
    await auth.requestPasswordReset(anyone, user.email);
    const token = await mailedToken(user.email, 'password-reset');
    await withClockMovedBy(HOUR + 60_000, async () => {
      expect(await refusal(auth.resetPassword(anyone, { token, password: 'too late now' }))).toMatchObject({
        code: 'INVALID_TOKEN',
      });
    });
    expect(await auth.login(anyone, { email: user.email, password: user.password })).toMatchObject({
      requires_2fa: false,
    });
  });

  it('changing the password asks for the current one', async () => {
    const { auth } = suite.areas.auth.services;
    const user = await serviceUser(suite);
    expect(
      await refusal(auth.changePassword(user, { current_password: 'wrong', password: 'something new 1' }, undefined)),
    ).toEqual({ status: 400, code: 'INVALID_PASSWORD', fields: ['current_password'] });
    await auth.changePassword(user, { current_password: user.password, password: 'something new 1' }, undefined);
    expect(await auth.login(anyone, { email: user.email, password: 'something new 1' })).toMatchObject({
      requires_2fa: false,
    });
  });
});

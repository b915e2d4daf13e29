import { randomUUID } from 'node:crypto';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { api } from './http.js';
import { tokenFromMail, waitForMail } from './mail.js';
import type { TestServer } from './test-server.js';

/** Where a running service answers and writes its mail: a test server, or a process a test started. */
export type ServiceAddress = Pick<TestServer, 'baseUrl' | 'outboxDir'>;

export const PASSWORD = 'correct horse battery staple';

export function newIdentity() {
  const id = randomUUID().slice(0, 8);
  return { email: `user-${id}@example.test`, username: `user_${id}`, password: PASSWORD };
}

export async function register(server: ServiceAddress, identity = newIdentity()) {
  const reply = await api(server.baseUrl).post('/auth/register', {
    body: { ...identity, password_confirmation: identity.password },
  });
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${reply.text}`);
  return { ...identity, id: reply.body.user.id as string };
}

export async function verify(server: ServiceAddress, email: string) {
  const mail = await waitForMail(server.outboxDir, email, 'verify-email');
  const reply = await api(server.baseUrl).post('/auth/verify-email', {
    headers: { 'x-verify-token': tokenFromMail(mail) },
  });
  if (reply.status !== 200) throw new Error(`verify failed: ${reply.status} ${reply.text}`);
}

export async function login(server: ServiceAddress, identity: { email: string; password: string }) {
  const reply = await api(server.baseUrl).post('/auth/login', {
    body: { email: identity.email, password: identity.password },
  });
  if (reply.status !== 200 || !reply.body.token) throw new Error(`login failed: ${reply.status} ${reply.text}`);
  return {
    accessToken: reply.body.token.access_token as string,
    refreshToken: reply.body.token.refresh_token as string,
    reply,
  };
}

/** A registered, verified and logged-in user, every step over HTTP (for tests of those steps' replies). */
export async function signedInOverHttp(server: ServiceAddress) {
  const user = await register(server);
  await verify(server, user.email);
  const tokens = await login(server, user);
  return { ...user, ...tokens };
}

/**
 * A registered, verified and logged-in user, made by the auth service in the test's process as the
 * three routes make it (the password hashed, the verification mail sent by the queue and its link
 * followed, a session started): the suite makes thousands of users, and three requests through Prism
 * for each cost more than most tests themselves. tests/auth tests those routes over HTTP.
 */
export async function signedInUser(server: TestServer, overrides: Partial<ReturnType<typeof newIdentity>> = {}) {
  const identity = { ...newIdentity(), ...overrides };
  const { auth } = server.riff.areas.auth.services;
  const actor = anonymousActor({ ip: '127.0.0.1', userAgent: 'riff-tests', requestId: null });
  const { user } = await auth.register(actor, identity);
  // an API-only app (WORKERS=0) sends the verification mail only when the test runs the queue
  if (server.riff.platform.config.workerConcurrency === 0) await server.riff.jobs.runDue();
  const mail = await waitForMail(server.outboxDir, identity.email, 'verify-email');
  await auth.verifyEmail(actor, tokenFromMail(mail));
  const result = await auth.login(actor, { email: identity.email, password: identity.password });
  if (result.requires_2fa) throw new Error('a new account cannot require two-factor sign-in');
  const { access_token: accessToken, refresh_token: refreshToken } = result.session;
  return { ...identity, id: user.id, accessToken, refreshToken };
}

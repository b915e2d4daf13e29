import { randomUUID } from 'node:crypto';
import { api } from './http.js';
import { tokenFromMail, waitForMail } from './mail.js';
import type { TestServer } from './test-server.js';

export const PASSWORD = 'correct horse battery staple';

export function newIdentity() {
  const id = randomUUID().slice(0, 8);
  return { email: `user-${id}@example.test`, username: `user_${id}`, password: PASSWORD };
}

export async function register(server: TestServer, identity = newIdentity()) {
  const reply = await api(server.baseUrl).post('/auth/register', {
    body: { ...identity, password_confirmation: identity.password },
  });
  if (reply.status !== 201) throw new Error(`register failed: ${reply.status} ${reply.text}`);
  return { ...identity, id: reply.body.user.id as string };
}

export async function verify(server: TestServer, email: string) {
  const mail = await waitForMail(server.outboxDir, email, 'verify-email');
  const reply = await api(server.baseUrl).post('/auth/verify-email', {
    headers: { 'x-verify-token': tokenFromMail(mail) },
  });
  if (reply.status !== 200) throw new Error(`verify failed: ${reply.status} ${reply.text}`);
}

export async function login(server: TestServer, identity: { email: string; password: string }) {
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

/** A registered, verified and logged-in user. */
export async function signedInUser(server: TestServer) {
  const user = await register(server);
  await verify(server, user.email);
  const tokens = await login(server, user);
  return { ...user, ...tokens };
}

import SubsonicAPI from 'subsonic-api';
import { expect } from 'vitest';
import { createUser, type TestUser } from './factories.js';
import { request } from './http.js';
import type { TestServer } from './test-server.js';

/** Makes an app password for `user` through the API (bearer) and returns its id and the password. */
export async function createAppPassword(server: TestServer, user: { accessToken: string }, name = 'A player app') {
  const reply = await request(server.baseUrl, 'POST', '/api/v1/users/me/app-passwords', {
    token: user.accessToken,
    body: { name },
  });
  expect(reply.status).toBe(201);
  return { id: reply.body.data.app_password.id as string, password: reply.body.data.password as string };
}

/**
 * A third-party Subsonic client (the npm package subsonic-api) against the test server. It signs every
 * call with u + t + s (a new salt each time) or with apiKey, and asks for JSON. /rest/ is outside
 * openapi.json, so it talks to the server directly, not through Prism.
 */
export function subsonicClient(
  server: TestServer,
  auth: { username: string; password: string } | { apiKey: string },
  options: { post?: boolean } = {},
) {
  return new SubsonicAPI({ url: server.directUrl, auth, ...options });
}

/** One call to /rest/<method> as an app would send it by hand (`p`, `enc:` and anything the client does not do). */
export async function restCall(
  server: TestServer,
  method: string,
  params: Record<string, string | string[]>,
  options: { post?: boolean; suffix?: '' | '.view' } = {},
) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : [value]) search.append(name, one);
  }
  const url = `${server.directUrl}/rest/${method}${options.suffix ?? ''}`;
  const response = options.post
    ? await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: search.toString(),
      })
    : await fetch(`${url}?${search}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The `subsonic-response` of a JSON reply. */
export function jsonReply(text: string) {
  return JSON.parse(text)['subsonic-response'] as Record<string, any>;
}

/**
 * A player app signed in as `user` (a new user when none is given) with an app password of its own:
 * the user, the subsonic-api client, and the parameters (`sign`) for restCall.
 */
export async function signedInPlayer(server: TestServer, user?: TestUser) {
  const who = user ?? (await createUser(server));
  const { password } = await createAppPassword(server, who, 'Player');
  const client = subsonicClient(server, { username: who.username, password });
  const sign = { u: who.username, p: password, v: '1.16.1', c: 'riff-tests' };
  return { user: who, client, sign, password };
}

/**
 * What ends a live socket: every way a user's credentials are revoked closes each of their open
 * sockets at once (4401), without waiting for them to send anything; and a token minted from an
 * API key is refused to read-only keys and dies with its key.
 */
import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { tokenFromMail, waitForMail } from '../support/mail.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { chatToken, closeOf, connectLive, liveUrl } from './live-client.js';

const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
const NEW_PASSWORD = 'another long password 77';

const live = async (user: TestUser) => connectLive(liveUrl(suite.server, await chatToken(suite.server, user)));

/** A host's session with a guest in it: the guest has two sockets (a chat token's and a stream token's), both subscribed. */
async function guestInSession() {
  const host = await createUser(suite.server);
  const guest = await createUser(suite.server);
  const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
  const hostSocket = await live(host);
  hostSocket.send({ type: 'subscribe', session_token: session.token });
  await hostSocket.next('subscribed');
  const streamToken = expectStatus(await guest.api.auth.streamToken(), 200).body.token;
  const guestSockets = [await live(guest), await connectLive(liveUrl(suite.server, streamToken))];
  for (const socket of guestSockets) {
    socket.send({ type: 'subscribe', session_token: session.token });
    await socket.next('subscribed');
  }
  return { host, guest, session, hostSocket, guestSockets };
}

/** The guest's sockets were closed with 4401 and heard nothing of the session after that; the host's goes on. */
async function expectGuestCutOff(
  setup: Awaited<ReturnType<typeof guestInSession>>,
  closes: Promise<{ code: number; reason: string }>[],
  reason: RegExp,
) {
  for (const closed of await Promise.all(closes)) {
    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(reason);
  }
  const track = await createTrack(suite.server, setup.host);
  expectStatus(
    await setup.host.api.queue.addSessionItem({ params: { token: setup.session.token }, body: { track_id: track.id } }),
    201,
  );
  setup.hostSocket.send({ type: 'chat', session_token: setup.session.token, text: 'still there?' });
  await setup.hostSocket.next('items_changed');
  await setup.hostSocket.next('chat');
  for (const socket of setup.guestSockets) expect(socket.received.map((message) => message.type)).not.toContain('chat');
  for (const socket of setup.guestSockets)
    expect(socket.received.map((message) => message.type)).not.toContain('items_changed');
  await setup.hostSocket.close();
}

describe('revoked credentials close the live sockets at once', () => {
  it('a password change closes every socket of the user (4401), the silent ones too', async () => {
    const setup = await guestInSession();
    const closes = setup.guestSockets.map((socket) => closeOf(socket));
    const changed = expectStatus(
      await setup.guest.api.auth.passwordChange({
        body: { current_password: setup.guest.password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      }),
      200,
    );
    expect(changed.body.data.message).toMatch(/signed out/);
    await expectGuestCutOff(setup, closes, /password was changed/);
  });

  it('a password reset closes them', async () => {
    const setup = await guestInSession();
    const closes = setup.guestSockets.map((socket) => closeOf(socket));
    await suite.http.post('/auth/password/reset-request', { body: { email: setup.guest.email } });
    const token = tokenFromMail(await waitForMail(suite.server.outboxDir, setup.guest.email, 'password-reset'));
    expect(
      (
        await suite.http.post('/auth/password/reset', {
          body: { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
        })
      ).status,
    ).toBe(200);
    await expectGuestCutOff(setup, closes, /password was reset/);
  });

  it('turning two-factor authentication off closes them', async () => {
    const setup = await guestInSession();
    const { guest } = setup;
    const started = await suite.http.post('/auth/2fa/setup', { token: guest.token });
    const secret = started.body.data.secret as string;
    const code = generateHOTP(decodeBase32IgnorePadding(secret), BigInt(Math.floor(Date.now() / 30_000)), 6);
    expect((await suite.http.post('/auth/2fa/verify', { token: guest.token, body: { code, secret } })).status).toBe(
      200,
    );
    const closes = setup.guestSockets.map((socket) => closeOf(socket));
    expect(
      (await suite.http.post('/auth/2fa/disable', { token: guest.token, body: { password: guest.password } })).status,
    ).toBe(200);
    await expectGuestCutOff(setup, closes, /Two-factor/);
  });

  it('deactivating the account closes them', async () => {
    const setup = await guestInSession();
    const closes = setup.guestSockets.map((socket) => closeOf(socket));
    expectStatus(await setup.guest.api.users.remove({ params: { id: setup.guest.id } }), 200);
    await expectGuestCutOff(setup, closes, /deactivated/);
  });

  it('deleting the account closes them', async () => {
    const setup = await guestInSession();
    const closes = setup.guestSockets.map((socket) => closeOf(socket));
    const deleted = await suite.http.delete('/users/me', {
      token: setup.guest.token,
      body: { confirm_text: 'DELETE', password: setup.guest.password },
    });
    expect(deleted.status).toBe(200);
    await expectGuestCutOff(setup, closes, /deleted/);
  });
});

describe('chat tokens minted with a key', () => {
  async function newKey(owner: TestUser, scopes: string[]) {
    const reply = await suite.http.post('/developer/api-keys', {
      token: owner.token,
      body: { name: `live ${scopes.join('+')}`, scopes },
    });
    expect(reply.status).toBe(201);
    return reply.body.data as { api_key: { id: string }; key: string };
  }

  it('a read-only key (read scope, or a webhook key) gets no chat token: 403 INSUFFICIENT_SCOPE', async () => {
    const owner = await createUser(suite.server);
    const { key } = await newKey(owner, ['read']);
    const readOnly = await suite.http.get('/chat/token', { headers: { 'x-api-key': key } });
    expect([readOnly.status, readOnly.body.error?.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect(readOnly.body.data).toBeUndefined();
    const webhook = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['*'], is_active: true },
    });
    expect(webhook.status).toBe(201);
    const byWebhookKey = await suite.http.get('/chat/token', {
      headers: { authorization: `Bearer ${webhook.body.data.api_key}` },
    });
    expect([byWebhookKey.status, byWebhookKey.body.error?.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    // the key itself still reads
    expect((await suite.http.get('/auth/me', { headers: { 'x-api-key': key } })).status).toBe(200);
  });

  it('a write key gets one; revoking the key closes the sockets opened with it and refuses its tokens', async () => {
    const owner = await createUser(suite.server);
    const host = await createUser(suite.server);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const { api_key, key } = await newKey(owner, ['read', 'write']);
    const other = await newKey(owner, ['read', 'write']);
    const minted = await suite.http.get('/chat/token', { headers: { 'x-api-key': key } });
    expect(minted.status).toBe(200);
    const token = minted.body.data.token as string;
    const byOtherKey = (await suite.http.get('/chat/token', { headers: { 'x-api-key': other.key } })).body.data
      .token as string;
    const streamToken = (await suite.http.post('/auth/stream-token', { headers: { 'x-api-key': key } })).body
      .token as string;
    const [socket, otherSocket, ownSocket] = await Promise.all([
      connectLive(liveUrl(suite.server, token)),
      connectLive(liveUrl(suite.server, byOtherKey)),
      live(owner),
    ]);
    socket.send({ type: 'subscribe', session_token: session.token });
    await socket.next('subscribed');
    socket.send({ type: 'chat', session_token: session.token, text: 'by key' });
    expect((await socket.next('chat')).data.message).toMatchObject({ text: 'by key', user: { id: owner.id } });

    const closed = closeOf(socket);
    expect((await suite.http.delete(`/developer/api-keys/${api_key.id}`, { token: owner.token })).status).toBe(200);
    expect(await closed).toEqual({ code: 4401, reason: expect.stringMatching(/API key was revoked/) });
    // the tokens minted with it open nothing any more; what the other key and the user's own token opened stays
    for (const dead of [token, streamToken]) {
      await expect(connectLive(liveUrl(suite.server, dead))).rejects.toMatchObject({
        status: 401,
        body: { error: { code: 'UNAUTHENTICATED' } },
      });
    }
    for (const open of [otherSocket, ownSocket]) {
      open.send({ type: 'subscribe', session_token: session.token });
      await open.next('subscribed');
    }
    await Promise.all([otherSocket.close(), ownSocket.close()]);
  });

  it('a stream token minted with a key stops streaming once the key is revoked', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { isPublic: false });
    const { api_key, key } = await newKey(owner, ['write']);
    const streamToken = (await suite.http.post('/auth/stream-token', { headers: { 'x-api-key': key } })).body
      .token as string;
    const before = await fetch(`${suite.server.directUrl}/api/v1/tracks/${track.id}/stream?token=${streamToken}`, {
      headers: { range: 'bytes=0-0' },
    });
    expect(before.status).toBe(206);
    await before.arrayBuffer();
    expect((await suite.http.delete(`/developer/api-keys/${api_key.id}`, { token: owner.token })).status).toBe(200);
    const after = await fetch(`${suite.server.directUrl}/api/v1/tracks/${track.id}/stream?token=${streamToken}`, {
      headers: { range: 'bytes=0-0' },
    });
    expect(after.status).toBe(401);
  });
});

/**
 * With REDIS_URL (and a shared PostgreSQL), live session updates reach clients of every instance:
 * two apps on one database and one Redis, a client on B hears what is done through A. Runs in the
 * PostgreSQL + Redis pass only (on PGlite two apps cannot share a database).
 */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectStatus, typedApi } from '../support/typed-api.js';
import { chatToken, closeOf, connectLive, liveUrl } from './live-client.js';

const NEW_PASSWORD = 'another long password 77';

const shared = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);

describe.skipIf(!shared)('live sessions across instances (Redis pub/sub)', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    // one signing key, as every instance of a deployment has: a token from A opens B's socket
    const key = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const env = { JWT_PRIVATE_KEY: key, RIFF_TEST_PRISM_PROXY: '0' };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  });

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it("a notification made through instance A reaches the user's socket on instance B", async () => {
    const [owner, fan] = await Promise.all([createUser(a), createUser(a)]);
    const ownerOnB = typedApi(b, { token: owner.accessToken });
    const onB = await connectLive(liveUrl(b, expectStatus(await ownerOnB.auth.chatToken(), 200).body.data.token));
    try {
      expectStatus(await fan.api.users.follow({ params: { id: owner.id } }), 200);
      const pushed = await onB.next('notification', 15_000);
      expect(pushed.data).toMatchObject({ type: 'follow', actor: { id: fan.id }, read_at: null });
    } finally {
      await onB.close();
    }
  });

  it('a client on instance B hears items, playback, chat and the end done through instance A', async () => {
    const host = await createUser(a);
    const guest = await createUser(a);
    const track = await createTrack(a, host);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const token = session.token;
    // the guest is on B: their token, the session and the socket come from B
    const guestOnB = typedApi(b, { token: guest.accessToken });
    expectStatus(await guestOnB.queue.getSession({ params: { token } }), 200);
    const onB = await connectLive(liveUrl(b, expectStatus(await guestOnB.auth.chatToken(), 200).body.data.token));
    const onA = await connectLive(liveUrl(a, await chatToken(a, host)));
    try {
      onB.send({ type: 'subscribe', session_token: token });
      expect((await onB.next('subscribed')).data.session.items).toEqual([]);
      onA.send({ type: 'subscribe', session_token: token });
      await onA.next('subscribed');

      expectStatus(await host.api.queue.addSessionItem({ params: { token }, body: { track_id: track.id } }), 201);
      const changed = await onB.next('items_changed');
      expect(changed.data.session.items.map((item: { track_id: string }) => item.track_id)).toEqual([track.id]);

      expectStatus(
        await host.api.queue.updateSession({ params: { token }, body: { is_playing: true, position_seconds: 9 } }),
        200,
      );
      expect((await onB.next('playback_changed')).data).toMatchObject({ is_playing: true, position_seconds: 9 });

      onA.send({ type: 'chat', session_token: token, text: 'from A' });
      expect((await onB.next('chat')).data.message).toMatchObject({ text: 'from A', user: { id: host.id } });
      onB.send({ type: 'chat', session_token: token, text: 'from B' });
      expect((await onA.next('chat')).data.message.text).toBe('from A');
      expect((await onA.next('chat')).data.message).toMatchObject({ text: 'from B', user: { id: guest.id } });
      // each message once: B's own chat reached B once, not again through Redis
      await onB.next('chat');
      expectStatus(await host.api.queue.endSession({ params: { token } }), 200);
      expect((await onB.next('ended')).data).toEqual({ reason: 'ended' });
      expect(
        onB.received.filter((message) => message.type === 'chat').map((message) => message.data.message.text),
      ).toEqual(['from A', 'from B']);
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });

  it('revoking credentials through A closes the user’s sockets on B at once (password change, API key)', async () => {
    const user = await createUser(a);
    const host = await createUser(a);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const created = expectStatus(
      await user.api.developer.createApiKey({ body: { name: 'live', scopes: ['read', 'write'] } }),
      201,
    ).body.data;
    const byKey = expectStatus(await typedApi(b, { headers: { 'x-api-key': created.key } }).auth.chatToken(), 200).body
      .data.token;
    const keySocket = await connectLive(liveUrl(b, byKey));
    const ownSocket = await connectLive(liveUrl(b, await chatToken(a, user)));
    for (const socket of [keySocket, ownSocket]) {
      socket.send({ type: 'subscribe', session_token: session.token });
      await socket.next('subscribed');
    }
    const keyClosed = closeOf(keySocket);
    expectStatus(await user.api.developer.revokeApiKey({ params: { id: created.api_key.id } }), 200);
    expect(await keyClosed).toEqual({ code: 4401, reason: expect.stringMatching(/API key was revoked/) });
    // the user's own socket on B outlives the key, not the password change
    ownSocket.send({ type: 'unsubscribe', session_token: session.token });
    await ownSocket.next('unsubscribed');
    const ownClosed = closeOf(ownSocket);
    expectStatus(
      await user.api.auth.passwordChange({
        body: { current_password: user.password, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      }),
      200,
    );
    expect(await ownClosed).toEqual({ code: 4401, reason: expect.stringMatching(/password was changed/) });
  });

  it('presence is the same on both instances: the host on A sees the guest on B arrive and leave', async () => {
    const host = await createUser(a);
    const guest = await createUser(a);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const token = session.token;
    const onA = await connectLive(liveUrl(a, await chatToken(a, host)));
    const onB = await connectLive(liveUrl(b, await chatToken(a, guest)));
    const names = [host, guest]
      .map((user) => ({ id: user.id, username: user.username }))
      .sort((x, y) => (x.username < y.username ? -1 : 1));
    try {
      onA.send({ type: 'subscribe', session_token: token });
      await onA.next('subscribed');
      await onA.next('presence');
      onB.send({ type: 'subscribe', session_token: token });
      await onB.next('subscribed');
      const arrived = {
        participants: names,
        participants_count: 2,
        joined: { id: guest.id, username: guest.username },
      };
      expect((await onA.next('presence')).data).toEqual(arrived);
      expect((await onB.next('presence')).data).toEqual(arrived);
      await onB.close();
      expect((await onA.next('presence')).data).toEqual({
        participants: [{ id: host.id, username: host.username }],
        participants_count: 2,
        left: { id: guest.id, username: guest.username },
      });
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });
});

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
import { chatToken, connectLive, liveUrl } from './live-client.js';

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

      expectStatus(await host.api.queue.updateSession({ params: { token }, body: { is_playing: true, position_seconds: 9 } }), 200);
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
      expect(onB.received.filter((message) => message.type === 'chat').map((message) => message.data.message.text)).toEqual(['from A', 'from B']);
    } finally {
      await Promise.all([onA.close(), onB.close()]);
    }
  });
});

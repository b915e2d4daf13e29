import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { runJob } from '../support/jobs.js';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { MAX_SOCKETS_PER_USER } from '../../server/src/modules/queue/live-socket.js';
import { chatToken, connectLive, liveUrl, type LiveClient } from './live-client.js';

// the sessions' clock, moved forward to see them expire
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const suite = useTestServer({}, { clock });

const codeOf = (reply: { status: number; body: unknown }) => [
  reply.status,
  (reply.body as { error?: { code: string } }).error?.code,
];

async function hostWithQueue() {
  const host = await createUser(suite.server);
  const tracks = await Promise.all([1, 2].map((n) => createTrack(suite.server, host, { title: `S${n}` })));
  expectStatus(
    await host.api.queue.update({
      body: { track_ids: tracks.map((track) => track.id), current_index: 1, position_seconds: 30 },
    }),
    200,
  );
  const created = expectStatus(await host.api.queue.createSession({ body: { title: 'Friday' } }), 201);
  return { host, tracks, session: created.body.data.session };
}

async function live(user: TestUser) {
  return connectLive(liveUrl(suite.server, await chatToken(suite.server, user)));
}

describe('shared sessions over HTTP', () => {
  it('starts from the host’s queue and is readable by anyone holding the token', async () => {
    const { host, tracks, session } = await hostWithQueue();
    expect(session).toMatchObject({
      host: { id: host.id, username: host.username },
      title: 'Friday',
      current_index: 1,
      position_seconds: 30,
      is_playing: false,
      participants_count: 1,
    });
    expect(session.items.map((item) => [item.track_id, item.position, item.added_by?.id])).toEqual([
      [tracks[0]!.id, 0, host.id],
      [tracks[1]!.id, 1, host.id],
    ]);
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session.share_url).toBe(
      `${suite.server.riff.platform.config.publicBaseUrl}/api/v1/queue/session/${session.token}`,
    );
    expect(new Date(session.expires_at).getTime() - new Date(session.created_at).getTime()).toBe(24 * 3600 * 1000);
    const anonymous = expectStatus(await suite.api.queue.getSession({ params: { token: session.token } }), 200);
    expect(anonymous.body.data.session).toMatchObject({
      token: session.token,
      items: [{ track_id: tracks[0]!.id }, { track_id: tracks[1]!.id }],
    });
    expect(codeOf(await suite.api.queue.getSession({ params: { token: `${session.token.slice(0, -1)}x` } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(codeOf(await suite.api.queue.getSession({ params: { token: 'nope' } }))).toEqual([404, 'NOT_FOUND']);
  });

  it('lets holders add, the host or the adder remove, only the host steer and end', async () => {
    const { host, tracks, session } = await hostWithQueue();
    const guest = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const mine = await createTrack(suite.server, guest, { title: 'Guest pick' });
    const privateOne = await createTrack(suite.server, stranger, { isPublic: false });
    const token = session.token;

    const added = expectStatus(
      await guest.api.queue.addSessionItem({ params: { token }, body: { track_id: mine.id } }),
      201,
    );
    expect(added.body.data.item).toMatchObject({ track_id: mine.id, position: 2, added_by: { id: guest.id } });
    expect(
      codeOf(await guest.api.queue.addSessionItem({ params: { token }, body: { track_id: privateOne.id } })),
    ).toEqual([404, 'NOT_FOUND']);
    expect(codeOf(await guest.api.queue.removeSessionItem({ params: { token, id: session.items[0]!.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(codeOf(await guest.api.queue.updateSession({ params: { token }, body: { is_playing: true } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(codeOf(await guest.api.queue.endSession({ params: { token } }))).toEqual([403, 'FORBIDDEN']);
    expect(codeOf(await host.api.queue.updateSession({ params: { token }, body: { current_index: 3 } }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);

    let current = expectStatus(await suite.api.queue.getSession({ params: { token } }), 200).body.data.session;
    expect(current.participants_count).toBe(2);
    expect(current.items.map((item) => item.position)).toEqual([0, 1, 2]);

    const steered = expectStatus(
      await host.api.queue.updateSession({
        params: { token },
        body: { current_index: 2, position_seconds: 5, is_playing: true },
      }),
      200,
    );
    expect(steered.body.data.session).toMatchObject({ current_index: 2, position_seconds: 5, is_playing: true });
    // the host removes an item before the current one: the same item stays current
    expectStatus(await host.api.queue.removeSessionItem({ params: { token, id: session.items[0]!.id } }), 200);
    current = expectStatus(await suite.api.queue.getSession({ params: { token } }), 200).body.data.session;
    expect(current.items.map((item) => [item.track_id, item.position])).toEqual([
      [tracks[1]!.id, 0],
      [mine.id, 1],
    ]);
    expect(current.current_index).toBe(1);
    // the guest removes their own
    expectStatus(await guest.api.queue.removeSessionItem({ params: { token, id: added.body.data.item.id } }), 200);
    expect(codeOf(await guest.api.queue.removeSessionItem({ params: { token, id: added.body.data.item.id } }))).toEqual(
      [404, 'NOT_FOUND'],
    );

    expectStatus(await host.api.queue.endSession({ params: { token } }), 200);
    expect(codeOf(await suite.api.queue.getSession({ params: { token } }))).toEqual([404, 'NOT_FOUND']);
    expect(codeOf(await guest.api.queue.addSessionItem({ params: { token }, body: { track_id: mine.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(codeOf(await host.api.queue.endSession({ params: { token } }))).toEqual([404, 'NOT_FOUND']);
  });

  it('writes each change to the host’s audit log', async () => {
    const { host, tracks, session } = await hostWithQueue();
    expectStatus(
      await host.api.queue.addSessionItem({ params: { token: session.token }, body: { track_id: tracks[0]!.id } }),
      201,
    );
    expectStatus(await host.api.queue.endSession({ params: { token: session.token } }), 200);
    const logs = expectStatus(await host.api.audit.logs({ query: { limit: 50 } }), 200).body.data.logs;
    const actions = logs.map((entry) => entry.action);
    for (const action of ['queue.updated', 'queue_session.created', 'queue_session.item_added', 'queue_session.ended'])
      expect(actions).toContain(action);
    expect(logs.find((entry) => entry.action === 'queue_session.item_added')).toMatchObject({
      resource: 'queue_session',
      metadata: { track_id: tracks[0]!.id },
    });
  });

  it('expires 24 h after its last change; the prune job removes it and tells its subscribers', async () => {
    // the session lives in the past, so that the prune job (on the real time) removes only sessions
    // that have really expired: test files share the database in the PostgreSQL pass
    const host = await createUser(suite.server);
    const track = await createTrack(suite.server, host);
    let socket: Awaited<ReturnType<typeof live>> | undefined;
    try {
      clock.offsetMs = -48 * 3600 * 1000;
      const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
      clock.offsetMs = -25 * 3600 * 1000;
      // 23 h later a change: it lives another 24 h from then
      expectStatus(
        await host.api.queue.addSessionItem({ params: { token: session.token }, body: { track_id: track.id } }),
        201,
      );
      clock.offsetMs = -2 * 3600 * 1000;
      expectStatus(await suite.api.queue.getSession({ params: { token: session.token } }), 200);
      socket = await live(host);
      socket.send({ type: 'subscribe', session_token: session.token });
      await socket.next('subscribed');
      clock.offsetMs = 0;
      expect(codeOf(await suite.api.queue.getSession({ params: { token: session.token } }))).toEqual([
        404,
        'NOT_FOUND',
      ]);
      const pruned = await runJob<{ removed: number }>(suite.server, 'queue.sessions.prune');
      expect(pruned.removed).toBeGreaterThanOrEqual(1);
      expect((await socket.next('ended')).data).toEqual({ reason: 'expired' });
    } finally {
      clock.offsetMs = 0;
      await socket?.close();
    }
  });
});

describe('the live channel (WebSocket /api/v1/ws)', () => {
  it('refuses a missing, forged or access token before the handshake (401 in the envelope)', async () => {
    const user = await createUser(suite.server);
    const base = `${suite.server.directUrl.replace(/^http/, 'ws')}/api/v1/ws`;
    for (const url of [base, `${base}?token=not.a.token`, liveUrl(suite.server, user.accessToken)]) {
      const refusal = await connectLive(url).then(
        () => undefined,
        (error: { status?: number; body?: { success: boolean; error: { code: string } } }) => error,
      );
      expect(refusal?.status).toBe(401);
      expect(refusal?.body).toMatchObject({ success: false, error: { code: 'UNAUTHENTICATED' } });
    }
  });

  it(`lets one account hold at most ${MAX_SOCKETS_PER_USER} sockets (429 RATE_LIMITED in the envelope past it); a closed one frees its place`, async () => {
    const user = await createUser(suite.server);
    const other = await createUser(suite.server);
    const url = liveUrl(suite.server, await chatToken(suite.server, user));
    const refusalOf = (attempt: Promise<LiveClient>) =>
      attempt.then(
        async (client) => {
          await client.close();
          return undefined;
        },
        (error: { status?: number; body?: { error: { code: string } } }) => error,
      );
    const sockets: LiveClient[] = [];
    try {
      // opened all at once: the limit holds against a burst of handshakes too
      const opened = await Promise.allSettled(Array.from({ length: MAX_SOCKETS_PER_USER + 5 }, () => connectLive(url)));
      sockets.push(...opened.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : [])));
      const refused = opened.flatMap((result) =>
        result.status === 'rejected' ? [result.reason as { status: number; body: { error: { code: string } } }] : [],
      );
      expect(sockets).toHaveLength(MAX_SOCKETS_PER_USER);
      expect(refused.map((refusal) => [refusal.status, refusal.body.error.code])).toEqual(
        Array(5).fill([429, 'RATE_LIMITED']),
      );
      // another account is not affected
      expect(await refusalOf(connectLive(liveUrl(suite.server, await chatToken(suite.server, other))))).toBeUndefined();
      await sockets.pop()!.close();
      let reopened: LiveClient | undefined;
      // the server learns of the close a moment after the client: the place comes back within a second
      for (let attempt = 0; attempt < 50 && !reopened; attempt++) {
        reopened = await connectLive(url).catch(async () => {
          await new Promise((resolve) => setTimeout(resolve, 20));
          return undefined;
        });
      }
      expect(reopened).toBeDefined();
      sockets.push(reopened!);
    } finally {
      await Promise.all(sockets.map((socket) => socket.close()));
    }
  });

  it('sends items, playback, chat and the end to every subscriber; a stream token opens it too', async () => {
    const { host, tracks, session } = await hostWithQueue();
    const guest = await createUser(suite.server);
    const token = session.token;
    const hostSocket = await live(host);
    const streamToken = expectStatus(await guest.api.auth.streamToken(), 200).body.token;
    const guestSocket = await connectLive(liveUrl(suite.server, streamToken));
    try {
      hostSocket.send({ type: 'subscribe', session_token: token });
      const subscribed = await hostSocket.next('subscribed');
      expect(subscribed).toMatchObject({
        session_token: token,
        data: { session: { token, items: [{}, {}] }, chat: [] },
      });
      guestSocket.send({ type: 'subscribe', session_token: token });
      expect((await guestSocket.next('subscribed')).data.session.participants_count).toBe(2);

      expectStatus(await guest.api.queue.addSessionItem({ params: { token }, body: { track_id: tracks[0]!.id } }), 201);
      for (const socket of [hostSocket, guestSocket]) {
        const changed = await socket.next('items_changed');
        expect(changed.session_token).toBe(token);
        expect(changed.data.session.items.map((item: { position: number }) => item.position)).toEqual([0, 1, 2]);
      }

      expectStatus(
        await host.api.queue.updateSession({ params: { token }, body: { is_playing: true, position_seconds: 42 } }),
        200,
      );
      const playback = await guestSocket.next('playback_changed');
      expect(playback.data).toMatchObject({ current_index: 1, position_seconds: 42, is_playing: true });

      guestSocket.send({ type: 'chat', session_token: token, text: 'great pick' });
      for (const socket of [hostSocket, guestSocket]) {
        const chat = await socket.next('chat');
        expect(chat.data.message).toMatchObject({
          text: 'great pick',
          user: { id: guest.id, username: guest.username },
        });
      }
      // stored with the session: a later subscriber gets it
      const late = await live(host);
      late.send({ type: 'subscribe', session_token: token });
      expect((await late.next('subscribed')).data.chat.map((message: { text: string }) => message.text)).toEqual([
        'great pick',
      ]);
      await late.close();

      expectStatus(await host.api.queue.endSession({ params: { token } }), 200);
      for (const socket of [hostSocket, guestSocket])
        expect((await socket.next('ended')).data).toEqual({ reason: 'ended' });
    } finally {
      await hostSocket.close();
      await guestSocket.close();
    }
  });

  it('answers bad messages with an error message and keeps the connection', async () => {
    const { host, session } = await hostWithQueue();
    const socket = await live(host);
    try {
      const errors: unknown[] = [];
      for (const bad of [
        'not json',
        JSON.stringify([1]),
        JSON.stringify({ type: 'dance' }),
        JSON.stringify({ type: 'subscribe' }),
      ]) {
        socket.send(bad);
        errors.push((await socket.next('error')).data.code);
      }
      expect(errors).toEqual(['BAD_REQUEST', 'VALIDATION_FAILED', 'VALIDATION_FAILED', 'VALIDATION_FAILED']);
      socket.send({ type: 'subscribe', session_token: 'unknown-token' });
      expect(await socket.next('error')).toMatchObject({ session_token: 'unknown-token', data: { code: 'NOT_FOUND' } });
      socket.send({ type: 'chat', session_token: session.token, text: 'before subscribing' });
      expect((await socket.next('error')).data.code).toBe('BAD_REQUEST');
      socket.send({ type: 'subscribe', session_token: session.token });
      await socket.next('subscribed');
      socket.send({ type: 'chat', session_token: session.token, text: 'x'.repeat(1001) });
      expect((await socket.next('error')).data.code).toBe('VALIDATION_FAILED');
      socket.send({ type: 'chat', session_token: session.token, text: '   ' });
      expect((await socket.next('error')).data.code).toBe('VALIDATION_FAILED');
      // a burst past the per-connection rate is refused, message by message
      for (let i = 0; i < 40; i++) socket.send({ type: 'unsubscribe', session_token: 'nothing' });
      expect((await socket.next('error')).data.code).toBe('RATE_LIMITED');
      // a frame over the size limit closes this socket only (1009); the service goes on
      const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify({ type: 'chat', session_token: session.token, text: 'y'.repeat(20_000) }));
      expect(await closed).toBe(1009);
      expectStatus(await suite.api.queue.getSession({ params: { token: session.token } }), 200);
    } finally {
      await socket.close();
    }
  });

  it('puts sessions hosted and chat messages in the export, and erases them with the account', async () => {
    const { host, session } = await hostWithQueue();
    const guest = await createUser(suite.server);
    const socket = await live(host);
    const guestSocket = await live(guest);
    socket.send({ type: 'subscribe', session_token: session.token });
    await socket.next('subscribed');
    guestSocket.send({ type: 'subscribe', session_token: session.token });
    await guestSocket.next('subscribed');
    socket.send({ type: 'chat', session_token: session.token, text: 'hello' });
    await socket.next('chat');
    const exported = await suite.http.get('/users/me/export', { token: host.token });
    expect(exported.body.queue_sessions).toEqual([
      expect.objectContaining({ title: 'Friday', track_ids: session.items.map((item) => item.track_id) }),
    ]);
    expect(exported.body.queue_chat_messages).toEqual([expect.objectContaining({ text: 'hello' })]);
    const hostClosed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    const deleted = await suite.http.delete('/users/me', {
      token: host.token,
      body: { confirm_text: 'DELETE', password: host.password },
    });
    expect(deleted.status).toBe(200);
    // the guest hears the end; the deleted host's own socket is closed
    expect((await guestSocket.next('ended')).data).toEqual({ reason: 'ended' });
    expect(await hostClosed).toBe(4401);
    expect(codeOf(await suite.api.queue.getSession({ params: { token: session.token } }))).toEqual([404, 'NOT_FOUND']);
    await Promise.all([socket.close(), guestSocket.close()]);
  });
});

describe('the HTTP server with the socket attached', () => {
  it('answers other requests that ask for an upgrade (e.g. curl’s h2c) as plain HTTP', async () => {
    const url = new URL('/healthz', suite.server.directUrl);
    const reply = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          headers: {
            Connection: 'Upgrade, HTTP2-Settings',
            Upgrade: 'h2c',
            'HTTP2-Settings': 'AAMAAABkAAQCAAAAAAIAAAAA',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(reply).toEqual({ status: 200, body: JSON.stringify({ status: 'ok' }) });
  });

  // last: it closes the live channel of this file's server, as a shutdown does
  it('closes every socket at shutdown (1001) and takes no new one', async () => {
    const user = await createUser(suite.server);
    const socket = await live(user);
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    await suite.server.riff.closeSockets();
    expect(await closed).toBe(1001);
    const refused = await live(user).then(
      () => undefined,
      (error: { status?: number; body?: { error: { code: string } } }) => error,
    );
    expect([refused?.status, refused?.body?.error.code]).toEqual([503, 'UNAVAILABLE']);
  });
});

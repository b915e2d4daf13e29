import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { chatToken, connectLive, liveUrl } from './live-client.js';

const suite = useTestServer();

const codeOf = (reply: { status: number; body: unknown }) => [
  reply.status,
  (reply.body as { error?: { code: string } }).error?.code,
];

async function sessionOf(host: TestUser) {
  const track = await createTrack(suite.server, host, { title: 'Opener' });
  expectStatus(await host.api.queue.update({ body: { track_ids: [track.id] } }), 200);
  return expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
}

async function participants(token: string) {
  return expectStatus(await suite.api.queue.getSession({ params: { token } }), 200).body.data.session
    .participants_count;
}

describe('shared sessions across a block', () => {
  it('the host blocking a guest removes them from the host’s sessions, and the host from theirs; neither joins again', async () => {
    const [host, guest] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [hosted, guestHosted] = [await sessionOf(host), await sessionOf(guest)];
    const pick = await createTrack(suite.server, guest, { title: 'Guest pick' });
    const other = await createTrack(suite.server, host, { title: 'Host pick' });
    expectStatus(
      await guest.api.queue.addSessionItem({ params: { token: hosted.token }, body: { track_id: pick.id } }),
      201,
    );
    expectStatus(
      await host.api.queue.addSessionItem({ params: { token: guestHosted.token }, body: { track_id: other.id } }),
      201,
    );
    expect([await participants(hosted.token), await participants(guestHosted.token)]).toEqual([2, 2]);
    const socket = await connectLive(liveUrl(suite.server, await chatToken(suite.server, guest)));
    socket.send({ type: 'subscribe', session_token: hosted.token });
    await socket.next('subscribed');

    expectStatus(await host.api.users.block({ params: { id: guest.id } }), 200);
    expect([await participants(hosted.token), await participants(guestHosted.token)]).toEqual([1, 1]);
    expect(
      codeOf(await guest.api.queue.addSessionItem({ params: { token: hosted.token }, body: { track_id: pick.id } })),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      codeOf(
        await host.api.queue.addSessionItem({ params: { token: guestHosted.token }, body: { track_id: other.id } }),
      ),
    ).toEqual([403, 'FORBIDDEN']);

    // nor over the live channel: a socket subscribed before the block cannot chat, and cannot subscribe again
    try {
      socket.send({ type: 'chat', session_token: hosted.token, text: 'still here?' });
      expect((await socket.next('error')).data.code).toBe('FORBIDDEN');
      socket.send({ type: 'subscribe', session_token: hosted.token });
      expect((await socket.next('error')).data.code).toBe('FORBIDDEN');
    } finally {
      await socket.close();
    }
    expect(await participants(hosted.token)).toBe(1);
  });

  it('a guest who blocks the host leaves the session too', async () => {
    const [host, guest] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const hosted = await sessionOf(host);
    const pick = await createTrack(suite.server, guest, { title: 'Guest pick' });
    expectStatus(
      await guest.api.queue.addSessionItem({ params: { token: hosted.token }, body: { track_id: pick.id } }),
      201,
    );
    expect(await participants(hosted.token)).toBe(2);
    expectStatus(await guest.api.users.block({ params: { id: host.id } }), 200);
    expect(await participants(hosted.token)).toBe(1);
    expect(
      codeOf(await guest.api.queue.addSessionItem({ params: { token: hosted.token }, body: { track_id: pick.id } })),
    ).toEqual([403, 'FORBIDDEN']);
  });
});

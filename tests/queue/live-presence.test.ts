/**
 * Presence on the live channel: who is in a session is told to everyone in it as members arrive and
 * leave, so the host and the guests see the same people; and every message the server sends
 * matches the contract's schema of live messages.
 */
import { describe, expect, it } from 'vitest';
import { parseLiveMessage, type LiveServerMessage } from '@riff/client';
import { LiveServerMessageSchema } from '@riff/contract';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { chatToken, connectLive, liveUrl, type LiveClient } from './live-client.js';

const suite = useTestServer();

const live = async (user: TestUser) => connectLive(liveUrl(suite.server, await chatToken(suite.server, user)));
const who = (user: TestUser) => ({ id: user.id, username: user.username });
const byName = (users: TestUser[]) =>
  users.map(who).sort((a, b) => (a.username < b.username ? -1 : a.username > b.username ? 1 : 0));

/** Every message received parses with the contract's schema, and through @riff/client as a frontend would parse it. */
function expectContractShaped(client: LiveClient) {
  for (const message of client.received) {
    const parsed = LiveServerMessageSchema.safeParse(message);
    expect(parsed.success, `${JSON.stringify(message).slice(0, 300)}: ${parsed.error?.message ?? ''}`).toBe(true);
    const typed: LiveServerMessage | undefined = parseLiveMessage(JSON.stringify(message));
    expect(typed?.type).toBe(message.type);
  }
  expect(parseLiveMessage('{"type":"presence","session_token":"t","data":{}}')).toBeUndefined();
}

describe('presence in a shared session', () => {
  it('tells the host and the guests who arrives and who leaves; both see the same participants', async () => {
    const host = await createUser(suite.server);
    const guest = await createUser(suite.server);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const token = session.token;
    const hostSocket = await live(host);
    hostSocket.send({ type: 'subscribe', session_token: token });
    expect((await hostSocket.next('subscribed')).data.session.participants_count).toBe(1);
    expect((await hostSocket.next('presence')).data).toEqual({
      participants: [who(host)],
      participants_count: 1,
      joined: who(host),
    });

    const guestSocket = await live(guest);
    guestSocket.send({ type: 'subscribe', session_token: token });
    expect((await guestSocket.next('subscribed')).data.session.participants_count).toBe(2);
    const arrived = { participants: byName([host, guest]), participants_count: 2, joined: who(guest) };
    expect(await hostSocket.next('presence')).toEqual({ type: 'presence', session_token: token, data: arrived });
    expect((await guestSocket.next('presence')).data).toEqual(arrived);

    // a second socket of the guest changes nobody's presence; its leaving does not make the guest leave
    const secondTab = await live(guest);
    secondTab.send({ type: 'subscribe', session_token: token });
    await secondTab.next('subscribed');
    expect((await hostSocket.next('presence')).data).toEqual({
      participants: byName([host, guest]),
      participants_count: 2,
    });
    await secondTab.close();
    expect((await hostSocket.next('presence')).data).toEqual({
      participants: byName([host, guest]),
      participants_count: 2,
    });

    // unsubscribing leaves; closing the socket leaves too
    guestSocket.send({ type: 'unsubscribe', session_token: token });
    await guestSocket.next('unsubscribed');
    const gone = { participants: [who(host)], participants_count: 2, left: who(guest) };
    expect((await hostSocket.next('presence')).data).toEqual(gone);
    guestSocket.send({ type: 'subscribe', session_token: token });
    await guestSocket.next('subscribed');
    expect((await hostSocket.next('presence')).data).toEqual(arrived);
    await guestSocket.close();
    expect((await hostSocket.next('presence')).data).toEqual(gone);

    expectContractShaped(hostSocket);
    expectContractShaped(guestSocket);
    await hostSocket.close();
  });

  it('every message of a session’s life matches the contract, errors included', async () => {
    const host = await createUser(suite.server);
    const session = expectStatus(await host.api.queue.createSession({ body: {} }), 201).body.data.session;
    const socket = await live(host);
    socket.send({ type: 'subscribe', session_token: session.token });
    await socket.next('subscribed');
    socket.send({ type: 'chat', session_token: session.token, text: 'hi' });
    await socket.next('chat');
    expectStatus(
      await host.api.queue.updateSession({ params: { token: session.token }, body: { is_playing: true } }),
      200,
    );
    await socket.next('playback_changed');
    socket.send({ type: 'shout', session_token: session.token });
    await socket.next('error');
    socket.send({ type: 'subscribe', session_token: 'no-such-session' });
    expect((await socket.next('error')).data.code).toBe('NOT_FOUND');
    expectStatus(await host.api.queue.endSession({ params: { token: session.token } }), 200);
    await socket.next('ended');
    socket.send({ type: 'unsubscribe', session_token: session.token });
    await socket.next('unsubscribed');
    expectContractShaped(socket);
    await socket.close();
  });
});

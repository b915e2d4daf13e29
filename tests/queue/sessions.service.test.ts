import { SESSION_TTL_HOURS } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { MAX_LIVE_SESSIONS_PER_HOST } from '../../server/src/modules/queue/sessions.service.js';
import { refusal } from '../support/refusal.js';
import { serviceQueueSession, serviceTrack, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of shared listening sessions, called on the services with an Actor: who reads, adds,
// removes, steers and ends, and for how long a session lives. sessions-api.test.ts and
// session-blocks.test.ts hold the routes, the live socket and the replies to the contract.
// the services' clock moves on demand (a session's expiry); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };

describe('shared sessions (service)', () => {
  it('starts from the host’s queue, and anyone holding the token reads it; a private track shows to its owner only', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const shown = await serviceTrack(suite, host, { title: 'Shown' });
    const hidden = await serviceTrack(suite, host, { isPublic: false, title: 'Hidden' });
    const session = await serviceQueueSession(suite, host, { tracks: [shown, hidden], title: 'Friday' });
    expect(session).toMatchObject({
      title: 'Friday',
      host: { id: host.id, username: host.username },
      current_index: 0,
      is_playing: false,
      participants_count: 1,
    });
    expect(session.items.map((item) => [item.position, item.track?.title])).toEqual([
      [0, 'Shown'],
      [1, 'Hidden'],
    ]);
    const { session: seen } = await sessions.get(anonymousActor(), session.token);
    expect(seen.items.map((item) => [item.track_id, item.track?.title ?? null])).toEqual([
      [shown.id, 'Shown'],
      [hidden.id, null],
    ]);
    expect((await sessions.get(guest, session.token)).session.participants_count).toBe(1);
    expect(await refusal(sessions.get(guest, `${session.token}x`))).toMatchObject(notFound);
  });

  it('a guest who adds joins; a track they may not see is refused with 404 and adds nothing', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const hostsPrivate = await serviceTrack(suite, host, { isPublic: false });
    const guestsTrack = await serviceTrack(suite, guest);
    const session = await serviceQueueSession(suite, host);
    expect(await refusal(sessions.addItem(guest, session.token, hostsPrivate.id))).toMatchObject(notFound);
    const { item } = await sessions.addItem(guest, session.token, guestsTrack.id);
    expect(item).toMatchObject({ track_id: guestsTrack.id, position: 0, added_by: { id: guest.id } });
    const { session: now } = await sessions.get(host, session.token);
    expect(now.participants_count).toBe(2);
    expect(now.items.map((entry) => entry.track_id)).toEqual([guestsTrack.id]);
  });

  it('only the host steers the playback, and only to an item the session holds', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const tracks = [await serviceTrack(suite, host), await serviceTrack(suite, host)];
    const session = await serviceQueueSession(suite, host, { tracks });
    expect(await refusal(sessions.update(guest, session.token, { is_playing: true }))).toMatchObject(forbidden);
    expect(await refusal(sessions.update(host, session.token, { current_index: 2 }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['current_index'],
    });
    const { session: steered } = await sessions.update(host, session.token, {
      current_index: 1,
      position_seconds: 1.5,
      is_playing: true,
    });
    expect(steered).toMatchObject({ current_index: 1, position_seconds: 1.5, is_playing: true });
  });

  it('an item goes by the host’s hand or its adder’s, not another guest’s; the current item stays current', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const adder = await serviceUser(suite);
    const other = await serviceUser(suite);
    const first = await serviceTrack(suite, host, { title: 'First' });
    const second = await serviceTrack(suite, host, { title: 'Second' });
    const session = await serviceQueueSession(suite, host, { tracks: [first, second] });
    await sessions.update(host, session.token, { current_index: 1 });
    const { item: added } = await sessions.addItem(adder, session.token, first.id);
    expect(await refusal(sessions.removeItem(other, session.token, added.id))).toMatchObject(forbidden);
    expect(await refusal(sessions.removeItem(adder, session.token, session.items[0]!.id))).toMatchObject(forbidden);
    expect(await sessions.removeItem(adder, session.token, added.id)).toEqual({ message: 'Removed from the session' });
    // the host removes the item before the current one: the current one is still "Second"
    await sessions.removeItem(host, session.token, session.items[0]!.id);
    const { session: now } = await sessions.get(host, session.token);
    expect(now.items.map((item) => [item.position, item.track?.title])).toEqual([[0, 'Second']]);
    expect(now.current_index).toBe(0);
    expect(await refusal(sessions.removeItem(host, session.token, added.id))).toMatchObject(notFound);
  });

  it('the host or an admin ends it, a guest may not; an ended session is gone for everyone', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const first = await serviceQueueSession(suite, host);
    const second = await serviceQueueSession(suite, host);
    expect(await refusal(sessions.end(guest, first.token))).toMatchObject(forbidden);
    expect(await sessions.end(host, first.token)).toEqual({ message: 'The session has ended' });
    expect(await refusal(sessions.get(guest, first.token))).toMatchObject(notFound);
    expect(await refusal(sessions.end(host, first.token))).toMatchObject(notFound);
    expect(await sessions.end(admin, second.token)).toEqual({ message: 'The session has ended' });
    expect(await refusal(sessions.get(host, second.token))).toMatchObject(notFound);
  });

  it(`a host holds at most ${MAX_LIVE_SESSIONS_PER_HOST} live sessions; ending one makes room`, async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const held = [];
    for (let n = 0; n < MAX_LIVE_SESSIONS_PER_HOST; n++) held.push(await serviceQueueSession(suite, host));
    expect(await refusal(sessions.create(host, {}))).toMatchObject({ status: 400, code: 'LIMIT_REACHED' });
    await sessions.end(host, held[0]!.token);
    expect((await sessions.create(host, { title: 'Room again' })).session.title).toBe('Room again');
  });

  it('whoever blocks the host, or is blocked by them, may not add to or chat in their session', async () => {
    const { sessions } = suite.areas.queue.services;
    const { follows } = suite.areas.users.services;
    const host = await serviceUser(suite);
    const blocked = await serviceUser(suite);
    const blocker = await serviceUser(suite);
    const track = await serviceTrack(suite, host);
    const session = await serviceQueueSession(suite, host);
    await follows.block(host, blocked.id);
    await follows.block(blocker, host.id);
    for (const guest of [blocked, blocker]) {
      expect(await refusal(sessions.addItem(guest, session.token, track.id))).toMatchObject(forbidden);
      expect(await refusal(sessions.chat(guest, session.token, 'hello'))).toMatchObject(forbidden);
    }
    expect((await sessions.get(host, session.token)).session).toMatchObject({ items: [], participants_count: 1 });
  });

  it('a chat message is 1 to 1000 characters and joins its sender', async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const guest = await serviceUser(suite);
    const session = await serviceQueueSession(suite, host);
    expect(await refusal(sessions.chat(guest, session.token, '   '))).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    expect(await refusal(sessions.chat(guest, session.token, 'x'.repeat(1001)))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(await sessions.chat(guest, session.token, 'Great set')).toMatchObject({
      text: 'Great set',
      user: { id: guest.id, username: guest.username },
    });
    expect((await sessions.get(host, session.token)).session.participants_count).toBe(2);
  });

  it(`expires ${SESSION_TTL_HOURS} h after its last change, and each change gives it that long again`, async () => {
    const { sessions } = suite.areas.queue.services;
    const host = await serviceUser(suite);
    const session = await serviceQueueSession(suite, host);
    const hour = 3_600_000;
    try {
      offsetMs = (SESSION_TTL_HOURS - 1) * hour;
      await sessions.update(host, session.token, { is_playing: true });
      offsetMs = (SESSION_TTL_HOURS + 1) * hour;
      expect((await sessions.get(host, session.token)).session.is_playing).toBe(true);
      offsetMs = 2 * SESSION_TTL_HOURS * hour;
      expect(await refusal(sessions.get(host, session.token))).toMatchObject(notFound);
    } finally {
      offsetMs = 0;
    }
  });
});

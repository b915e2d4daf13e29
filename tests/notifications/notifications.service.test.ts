import { describe, expect, it } from 'vitest';
import { readOutbox } from '../support/mail.js';
import { refusal } from '../support/refusal.js';
import {
  serviceComment,
  serviceFollows,
  serviceLikes,
  servicePaidOrder,
  servicePlaylist,
  serviceProduct,
  serviceReposts,
  serviceTrack,
  serviceUser,
  type ServiceUser,
} from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of the inbox, on the services: which events notify whom, folding, blocks, preferences,
// the digest and retention. notifications.test.ts holds the routes and their replies.
// the services' clock moves on demand (the fold's hour, the retention); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const page = { page: 1, limit: 20 };

/** Runs the queue until nothing is due: the events' handlers, then what they queue (mail). */
const settle = () => suite.platform.jobs.runDue();

async function inbox(user: ServiceUser, options: { unread?: boolean } = {}) {
  await settle();
  return (await suite.areas.notifications.services.notifications.list(user, { ...page, ...options })).notifications;
}

describe('notifications (service)', () => {
  it('a follow, a like, a repost and a comment each tell the track’s owner, naming who did it; the actor is not told of their own acts', async () => {
    const owner = await serviceUser(suite, { creator: true });
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { title: 'Night Drive' });
    await serviceFollows(suite, fan, [owner]);
    await serviceLikes(suite, fan, [track]);
    await serviceReposts(suite, fan, [track]);
    await serviceComment(suite, fan, track, { content: 'Lovely low end on this one' });
    // the owner's own like and comment notify nobody
    await serviceLikes(suite, owner, [track]);
    await serviceComment(suite, owner, track, { content: 'Thanks all' });
    const notes = await inbox(owner);
    expect(notes.map((note) => note.type)).toEqual(['comment', 'repost', 'like', 'follow']);
    for (const note of notes) {
      expect(note.actor?.id).toBe(fan.id);
      // one act names its actor; only a fold lists actors
      expect(note.actors).toEqual([]);
      expect(note.count).toBe(1);
      expect(note.read_at).toBeNull();
    }
    expect(notes[0]).toMatchObject({
      subject: { type: 'comment', title: 'Lovely low end on this one' },
      message: `${fan.username} commented on your track Night Drive: “Lovely low end on this one”`,
    });
    expect(notes[1]).toMatchObject({ subject: { type: 'track', id: track.id, title: 'Night Drive' } });
    expect(notes[2]!.message).toBe(`${fan.username} liked your track Night Drive`);
    expect(notes[3]).toMatchObject({ subject: { type: 'user', id: fan.id, title: fan.username } });
    expect(await inbox(fan)).toEqual([]);
  });

  it('a reply tells the author of the comment it answers, and the track’s owner as a comment', async () => {
    const owner = await serviceUser(suite, { creator: true });
    const first = await serviceUser(suite);
    const second = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { title: 'Tides' });
    const comment = await serviceComment(suite, first, track, { content: 'Where was this recorded?' });
    await serviceComment(suite, second, track, { content: 'Sounds like Cornwall', parent: comment });
    const [reply] = await inbox(first);
    expect(reply).toMatchObject({ type: 'reply', actor: { id: second.id }, subject: { type: 'comment' } });
    expect(reply!.message).toBe(`${second.username} replied to your comment on Tides: “Sounds like Cornwall”`);
    expect((await inbox(owner)).map((note) => [note.type, note.actor?.id])).toEqual([
      ['comment', second.id],
      ['comment', first.id],
    ]);
    // the owner replying to a comment on their own track tells its author once, as a reply
    await serviceComment(suite, owner, track, { content: 'In Devon', parent: comment });
    expect((await inbox(first)).map((note) => note.type)).toEqual(['reply', 'reply']);
  });

  it('likes of one track within the hour fold into one notification, newest actors first, three shown; a like after the hour starts another', async () => {
    const owner = await serviceUser(suite, { creator: true });
    const track = await serviceTrack(suite, owner, { title: 'Fold me' });
    const fans: ServiceUser[] = [];
    for (let index = 0; index < 4; index++) fans.push(await serviceUser(suite));
    for (const fan of fans) await serviceLikes(suite, fan, [track]);
    // a second like of the same fan (after an unlike) is not counted again
    await suite.areas.social.services.social.unlike(fans[0]!, track.id);
    await serviceLikes(suite, fans[0]!, [track]);
    const [folded, ...rest] = await inbox(owner);
    expect(rest).toEqual([]);
    expect(folded).toMatchObject({ type: 'like', count: 4, actor: { id: fans[0]!.id } });
    expect(folded!.actors.map((actor) => actor.id)).toEqual([fans[0]!.id, fans[3]!.id, fans[2]!.id]);
    expect(folded!.message).toBe(`${fans[0]!.username} and 3 others liked your track Fold me`);
    offsetMs = HOUR + 60_000;
    try {
      const late = await serviceUser(suite);
      await serviceLikes(suite, late, [track]);
      const notes = await inbox(owner);
      expect(notes.map((note) => note.count)).toEqual([1, 4]);
      expect(notes[0]!.message).toBe(`${late.username} liked your track Fold me`);
    } finally {
      offsetMs = 0;
    }
  });

  it('what names a user one blocked is no longer shown, nor counted unread; others’ notifications go on', async () => {
    const owner = await serviceUser(suite, { creator: true });
    const troll = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    await serviceLikes(suite, troll, [track]);
    await serviceLikes(suite, fan, [track]);
    expect((await inbox(owner))[0]).toMatchObject({ count: 2 });
    await suite.areas.users.services.follows.block(owner, troll.id);
    // the fold that names the blocked user is hidden with them; the unread count agrees
    expect(await inbox(owner)).toEqual([]);
    expect(await suite.areas.notifications.services.notifications.unreadCount(owner)).toEqual({ count: 0 });
    const other = await serviceTrack(suite, owner, { title: 'After the block' });
    await serviceLikes(suite, fan, [other]);
    expect((await inbox(owner)).map((note) => note.subject?.title)).toEqual(['After the block']);
  });

  it('a subject the reader may no longer see is shown as null; the notification stays', async () => {
    const owner = await serviceUser(suite, { creator: true });
    const friend = await serviceUser(suite);
    const playlist = await servicePlaylist(suite, owner, { title: 'Road trip' });
    await suite.areas.playlists.services.collaborators.add(owner, playlist.id, {
      user_id: friend.id,
      permission: 'write',
    });
    const [added] = await inbox(friend);
    expect(added).toMatchObject({
      type: 'collaborator_added',
      actor: { id: owner.id },
      subject: { type: 'playlist', id: playlist.id, title: 'Road trip' },
      message: `${owner.username} added you as a collaborator on the playlist Road trip`,
    });
    await suite.areas.playlists.services.playlists.remove(owner, playlist.id, undefined);
    const [after] = await inbox(friend);
    expect(after).toMatchObject({ id: added!.id, subject: null, message: added!.message });
  });

  it('a sale tells the seller who bought, and the buyer that the order completed', async () => {
    const seller = await serviceUser(suite, { creator: true });
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { title: 'Drum pack', price: 12 });
    const order = await servicePaidOrder(suite, buyer, [product]);
    expect(await inbox(seller)).toMatchObject([
      {
        type: 'sale',
        actor: { id: buyer.id },
        subject: { type: 'product', id: product.id, title: 'Drum pack' },
        message: `${buyer.username} bought your product Drum pack`,
      },
    ]);
    expect(await inbox(buyer)).toMatchObject([
      { type: 'order_completed', actor: null, subject: { type: 'order', id: order.id } },
    ]);
  });

  it('preferences choose per type: out of the inbox, or into one daily mail digest', async () => {
    const { preferences } = suite.areas.users.services;
    const owner = await serviceUser(suite, { creator: true });
    const track = await serviceTrack(suite, owner, { title: 'Quiet' });
    const defaults = (await preferences.preferences(owner)).preferences.notifications;
    expect(defaults.like).toEqual({ in_app: true, email: false });
    expect(defaults.moderation).toEqual({ in_app: true, email: false });
    // one field of one type changes; the rest stays
    const changed = await preferences.updatePreferences(owner, {
      notifications: { like: { in_app: false }, follow: { email: true } },
    });
    expect(changed.preferences.notifications).toMatchObject({
      like: { in_app: false, email: false },
      follow: { in_app: true, email: true },
      email_new_follower: defaults.email_new_follower,
    });
    const fans = [await serviceUser(suite), await serviceUser(suite)];
    await serviceLikes(suite, fans[0]!, [track]);
    await serviceFollows(suite, fans[0]!, [owner]);
    await serviceFollows(suite, fans[1]!, [owner]);
    expect((await inbox(owner)).map((note) => note.type)).toEqual(['follow', 'follow']);
    const digestsTo = async (user: ServiceUser) =>
      (await readOutbox(suite.outboxDir)).filter(
        (mail) => mail.template === 'notification-digest' && mail.to === user.email,
      );
    expect(await digestsTo(owner)).toEqual([]);
    expect(await suite.areas.notifications.services.digest.run()).toBe(1);
    await settle();
    const digests = await digestsTo(owner);
    expect(digests).toHaveLength(1);
    expect(digests.at(-1)!.subject).toBe('Your Riff digest: 2 notifications');
    expect(digests.at(-1)!.text).toContain(`• ${fans[0]!.username} followed you`);
    expect(digests.at(-1)!.text).toContain(`• ${fans[1]!.username} followed you`);
    expect(digests.at(-1)!.text).not.toContain('liked');
    // each goes by mail once
    expect(await suite.areas.notifications.services.digest.run()).toBe(0);
  });

  it('read, unread count, delete: one’s own only; kept 90 days', async () => {
    const { notifications } = suite.areas.notifications.services;
    const owner = await serviceUser(suite, { creator: true });
    const stranger = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    for (let index = 0; index < 3; index++) await serviceFollows(suite, await serviceUser(suite), [owner]);
    await serviceReposts(suite, stranger, [track]);
    const notes = await inbox(owner);
    expect(notes).toHaveLength(4);
    expect(await notifications.unreadCount(owner)).toEqual({ count: 4 });
    // another user's ids change nothing
    expect(await notifications.markRead(stranger, { ids: [notes[0]!.id] })).toEqual({ updated: 0 });
    expect(await notifications.markRead(owner, { ids: [notes[0]!.id, notes[1]!.id] })).toEqual({ updated: 2 });
    expect(await notifications.markRead(owner, { ids: [notes[0]!.id] })).toEqual({ updated: 0 });
    expect((await inbox(owner, { unread: true })).map((note) => note.id)).toEqual([notes[2]!.id, notes[3]!.id]);
    expect(await notifications.markRead(owner, { all: true })).toEqual({ updated: 2 });
    expect(await notifications.unreadCount(owner)).toEqual({ count: 0 });
    expect(await refusal(notifications.remove(stranger, notes[0]!.id))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
    await notifications.remove(owner, notes[0]!.id);
    expect(await refusal(notifications.remove(owner, notes[0]!.id))).toMatchObject({ status: 404 });
    expect(await inbox(owner)).toHaveLength(3);
    offsetMs = 90 * DAY - HOUR;
    try {
      await notifications.prune();
      expect(await inbox(owner)).toHaveLength(3);
      offsetMs = 90 * DAY + HOUR;
      expect(await notifications.prune()).toBeGreaterThanOrEqual(3);
      expect(await inbox(owner)).toEqual([]);
    } finally {
      offsetMs = 0;
    }
  });
});

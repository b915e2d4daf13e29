import { describe, expect, it } from 'vitest';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { refusal } from '../support/refusal.js';
import {
  serviceComment,
  serviceFollows,
  serviceLikes,
  serviceReposts,
  serviceTrack,
  serviceUser,
} from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of likes, reposts, the feed and plays, called on the services with an Actor:
// likes.test.ts, feed.test.ts, plays.test.ts and stats.test.ts hold the routes and replies to the
// contract (and the races and rate limits, which need many requests); these hold what the services decide.
const suite = useServices();
const page = { page: 1, limit: 50 };
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const listener = (ip: string, userAgent = 'test-agent') => anonymousActor({ ip, userAgent, requestId: null });

describe('likes (service)', () => {
  it('a like counts once for the owner, lands in the liker’s favorites, and unliking takes both back', async () => {
    const { social } = suite.areas.social.services;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    expect(await social.like(fan, track.id)).toEqual({ liked: true });
    expect(await social.like(fan, track.id)).toEqual({ liked: true });
    expect((await tracks.get(owner, track.id)).track.like_count).toBe(1);
    const { playlist } = await suite.areas.playlists.services.playlists.favorites(fan, { offset: 0, limit: 10 });
    expect(playlist).toMatchObject({ is_default_favorites: true, track_count: 1 });
    expect((await social.userLikes(owner, fan.id, page)).tracks.map((liked) => liked.id)).toEqual([track.id]);
    expect(await social.unlike(fan, track.id)).toEqual({ liked: false });
    expect((await tracks.get(owner, track.id)).track.like_count).toBe(0);
    expect((await social.userLikes(fan, 'me', page)).tracks).toEqual([]);
  });

  it('a private track of another is not there to like; one made private after the like can still be unliked', async () => {
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const hidden = await serviceTrack(suite, owner, { isPublic: false });
    const later = await serviceTrack(suite, owner);
    expect(await refusal(social.like(fan, hidden.id))).toMatchObject(notFound);
    expect(await refusal(social.unlike(fan, hidden.id))).toMatchObject(notFound);
    await serviceLikes(suite, fan, [later]);
    await suite.areas.tracks.services.tracks.update(owner, later.id, { is_public: false });
    // the liker's list shows what they may see now: not the track made private
    expect((await social.userLikes(fan, 'me', page)).tracks).toEqual([]);
    expect(await social.unlike(fan, later.id)).toEqual({ liked: false });
  });

  it('a block either way stops likes and reposts of the other’s tracks, and hides their likes', async () => {
    const { social } = suite.areas.social.services;
    const { follows } = suite.areas.users.services;
    const owner = await serviceUser(suite);
    const blocked = await serviceUser(suite);
    const blocker = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    await follows.block(owner, blocked.id);
    await follows.block(blocker, owner.id);
    for (const user of [blocked, blocker]) {
      expect(await refusal(social.like(user, track.id))).toMatchObject(forbidden);
      expect(await refusal(social.repost(user, track.id))).toMatchObject(forbidden);
    }
    expect(await refusal(social.userLikes(blocked, owner.id, page))).toMatchObject(notFound);
  });

  it('who liked a track is for its owner and admins: another user gets 403', async () => {
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner);
    await serviceLikes(suite, fan, [track]);
    expect((await social.likers(owner, track.id, page)).users.map((user) => user.username)).toEqual([fan.username]);
    expect((await social.likers(admin, track.id, page)).pagination.total).toBe(1);
    expect(await refusal(social.likers(fan, track.id, page))).toMatchObject(forbidden);
  });
});

describe('reposts and the feed (service)', () => {
  it('only public tracks of others are reposted: one’s own is 400, a private one 400 to its owner and 404 to others', async () => {
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const shown = await serviceTrack(suite, owner);
    const hidden = await serviceTrack(suite, owner, { isPublic: false });
    expect(await refusal(social.repost(owner, shown.id))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(await refusal(social.repost(owner, hidden.id))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(await refusal(social.repost(fan, hidden.id))).toMatchObject(notFound);
    expect(await social.repost(fan, shown.id)).toEqual({ reposted: true });
    expect(await social.repost(fan, shown.id)).toEqual({ reposted: true });
    expect((await social.userReposts(owner, fan.id, page)).tracks.map((track) => track.id)).toEqual([shown.id]);
    expect(await social.unrepost(fan, shown.id)).toEqual({ reposted: false });
    expect((await social.userReposts(owner, fan.id, page)).pagination.total).toBe(0);
  });

  it('the feed shows the uploads and reposts of whom the user follows, public tracks only, never their own reposted back', async () => {
    const { social } = suite.areas.social.services;
    const reader = await serviceUser(suite);
    const artist = await serviceUser(suite);
    const curator = await serviceUser(suite);
    const upload = await serviceTrack(suite, artist, { title: 'Upload' });
    await serviceTrack(suite, artist, { isPublic: false, title: 'Private' });
    const mine = await serviceTrack(suite, reader, { title: 'Mine' });
    await serviceFollows(suite, reader, [artist, curator]);
    await serviceReposts(suite, curator, [upload, mine]);
    const { items } = await social.feed(reader, page);
    expect(items.map((item) => [item.type, item.track.title, item.actor.username]).sort()).toEqual(
      [
        ['repost', 'Upload', curator.username],
        ['upload', 'Upload', artist.username],
      ].sort(),
    );
  });
});

describe('plays (service)', () => {
  it('a play counts once the whole of a short track is heard, and once per listener in the window', async () => {
    const { plays } = suite.areas.social.services;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { seconds: 3 });
    expect(await plays.play(fan, track.id, { duration_listened: 2, source: 'track' })).toEqual({ counted: false });
    expect(await plays.play(fan, track.id, { duration_listened: track.duration, source: 'track' })).toEqual({
      counted: true,
    });
    expect(await plays.play(fan, track.id, { duration_listened: track.duration, source: 'track' })).toEqual({
      counted: false,
    });
    // anonymous listeners are told apart by address and user agent
    expect(await plays.play(listener('198.51.100.7'), track.id, { duration_listened: 3, source: 'embed' })).toEqual({
      counted: true,
    });
    expect(await plays.play(listener('198.51.100.7'), track.id, { duration_listened: 3, source: 'embed' })).toEqual({
      counted: false,
    });
    expect(
      await plays.play(listener('198.51.100.7', 'other-agent'), track.id, { duration_listened: 3, source: 'embed' }),
    ).toEqual({ counted: true });
    expect((await tracks.get(owner, track.id)).track.play_count).toBe(3);
  });

  it('a private track is played by its owner or with its secret link; anyone else gets 404 and nothing counts', async () => {
    const { plays, social } = suite.areas.social.services;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { isPublic: false, seconds: 3 });
    const body = { duration_listened: 3, source: 'track' } as const;
    expect(await refusal(plays.play(fan, track.id, body))).toMatchObject(notFound);
    const secret = new URL((await social.share(owner, track.id, { platform: 'link' })).share_url).searchParams.get(
      'secret',
    )!;
    expect(await plays.play(fan, track.id, body, secret)).toEqual({ counted: true });
    expect(await plays.play(owner, track.id, body)).toEqual({ counted: true });
    expect((await tracks.get(owner, track.id)).track.play_count).toBe(2);
  });

  it('the history keeps signed-in plays of 5 s or more, newest first, and clearing it empties it', async () => {
    const { plays } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const first = await serviceTrack(suite, owner, { seconds: 6, title: 'First' });
    const second = await serviceTrack(suite, owner, { seconds: 6, title: 'Second' });
    await plays.play(fan, first.id, { duration_listened: 4, source: 'track' });
    await plays.play(fan, first.id, { duration_listened: 5, source: 'search' });
    await plays.play(fan, second.id, { duration_listened: 6, source: 'queue' });
    const { history } = await plays.history(fan, page);
    expect(history.map((entry) => [entry.track.title, entry.source, entry.duration_listened])).toEqual([
      ['Second', 'queue', 6],
      ['First', 'search', 5],
    ]);
    expect(await plays.clearHistory(fan)).toEqual({ message: 'Listening history cleared' });
    expect((await plays.history(fan, page)).history).toEqual([]);
  });

  it('a track’s statistics are its owner’s and admins’: another user who may see it gets 403', async () => {
    const { plays } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const fan = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner, { seconds: 3 });
    await plays.play(fan, track.id, { duration_listened: 3, source: 'playlist' });
    await serviceLikes(suite, fan, [track]);
    await serviceComment(suite, fan, track, { content: 'Nice' });
    const { stats } = await plays.stats(owner, track.id, 'all');
    expect(stats).toMatchObject({
      comment_count: 1,
      play_count: 1,
      unique_listeners: 1,
      like_count: 1,
      completion_rate: 1,
      sources: { playlist: 1 },
    });
    expect((await plays.stats(admin, track.id, '7d')).stats.play_count).toBe(1);
    expect(await refusal(plays.stats(fan, track.id, 'all'))).toMatchObject(forbidden);
  });
});

import { describe, expect, it } from 'vitest';
import { createTrack, createUser, type TestUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { restCall, subsonicClient, signedInPlayer } from '../support/subsonic.js';
import { expectValidSubsonicXml } from '../support/subsonic-xsd.js';

// Media annotation through a real Subsonic client (subsonic-api): star and unstar are Riff's likes
// and follows (seen on the JSON API as the same likes and follows), setRating the interface's own
// ratings (userRating), scrobble a play with source subsonic or "now playing", which the caller's
// followers see in getNowPlaying; getStarred2 lists what was starred. Only what the caller may see
// can be touched (else error 70), and a read-scope API key changes nothing (error 50). Every XML
// reply validates against the XSD.
const suite = useTestServer();

type Json = Record<string, any>;

const player = (user?: TestUser) => signedInPlayer(suite.server, user);

const track = (owner: TestUser, title: string, album?: string, extra: { isPublic?: boolean; seconds?: number } = {}) =>
  createTrack(suite.server, owner, {
    title,
    ...(extra.isPublic !== undefined ? { isPublic: extra.isPublic } : {}),
    ...(extra.seconds !== undefined ? { seconds: extra.seconds } : {}),
    tags: { title, ...(album ? { album } : {}), year: 2025 },
  });

const likedIds = async (user: TestUser) => {
  const reply = await suite.http.get('/users/me/likes', { token: user.accessToken });
  expect(reply.status).toBe(200);
  return (reply.body.data.tracks as Json[]).map((entry) => entry.id as string);
};

const followingIds = async (user: TestUser) => {
  const reply = await suite.http.get('/users/me/following', { token: user.accessToken });
  expect(reply.status).toBe(200);
  return (reply.body.data.users as Json[]).map((entry) => entry.id as string);
};

/** The types and actors of the user's notifications, once `count` have come (the job makes them shortly after the event). */
async function inboxOf(user: TestUser, count: number) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await suite.http.get('/notifications', { token: user.accessToken });
    expect(reply.status).toBe(200);
    const notes = reply.body.data.notifications as Json[];
    if (notes.length >= count || Date.now() > deadline) return notes.map((note) => [note.type, note.actor?.id]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ok = { status: 'ok' };
/** The songs getNowPlaying shows this player. */
const playing = async (who: { client: ReturnType<typeof subsonicClient> }) =>
  (((await who.client.getNowPlaying()).nowPlaying as Json).entry as Json[]).map((entry) => entry.id as string);
const failed = (code: number) => ({ status: 'failed', error: { code } });
const ids = (items: Json[] | undefined) => (items ?? []).map((item) => item.id as string);

/** A creator with an album of two public songs and a private one, a single, and a listener. */
async function world() {
  const creator = await createUser(suite.server);
  const album = `Tides ${Math.random().toString(36).slice(2, 8)}`;
  const first = await track(creator, 'Tide One', album);
  const second = await track(creator, 'Tide Two', album);
  const secret = await track(creator, 'Tide Secret', album, { isPublic: false });
  const single = await track(creator, 'Lone Wave');
  const me = await player();
  const albums = ((await me.client.getArtist({ id: creator.id })).artist as Json).album as Json[];
  const albumId = albums.find((entry) => entry.name === album)!.id as string;
  return { creator, album, albumId, first, second, secret, single, me };
}

describe('star and unstar (likes and follows)', () => {
  it('a starred song is a like on the API, in getStarred2 and getAlbumList2 starred; unstar removes it', async () => {
    const w = await world();
    const { client } = w.me;
    expect(await client.star({ id: w.first.id })).toMatchObject(ok);
    expect(await likedIds(w.me.user)).toEqual([w.first.id]);
    // the like went through the social area: the owner's like_count counts it
    const owned = await suite.http.get(`/tracks/${w.first.id}`, { token: w.creator.accessToken });
    expect(owned.body.data.track.like_count).toBe(1);
    expect(await inboxOf(w.creator, 1)).toEqual([['like', w.me.user.id]]);
    // again: nothing more to do
    expect(await client.star({ id: w.first.id })).toMatchObject(ok);
    expect(await likedIds(w.me.user)).toEqual([w.first.id]);

    expect(((await client.getSong({ id: w.first.id })).song as Json).starred).toBeDefined();
    const starred = (await client.getStarred2()).starred2 as Json;
    expect(ids(starred.song)).toEqual([w.first.id]);
    expect(ids(starred.album)).toEqual([w.albumId]);
    const list = ((await client.getAlbumList2({ type: 'starred' })).albumList2 as Json).album as Json[];
    expect(ids(list)).toEqual([w.albumId]);
    // a like made on the API is a star too, the latest first
    expect((await suite.http.post(`/tracks/${w.single.id}/like`, { token: w.me.user.accessToken })).status).toBe(200);
    expect(ids(((await client.getStarred2()).starred2 as Json).song)).toEqual([w.single.id, w.first.id]);
    const xml = await restCall(suite.server, 'getStarred2', w.me.sign);
    await expectValidSubsonicXml(xml.text);

    expect(await client.unstar({ id: [w.first.id, w.single.id] })).toMatchObject(ok);
    expect(await likedIds(w.me.user)).toEqual([]);
    const none = (await client.getStarred2()).starred2 as Json;
    expect([ids(none.artist), ids(none.album), ids(none.song)]).toEqual([[], [], []]);
    expect(
      ((await suite.http.get(`/tracks/${w.first.id}`, { token: w.creator.accessToken })).body.data.track as Json)
        .like_count,
    ).toBe(0);
  });

  it('a starred album likes each of its songs the caller may see; unstar unlikes them', async () => {
    const w = await world();
    expect(await w.me.client.star({ albumId: w.albumId })).toMatchObject(ok);
    expect((await likedIds(w.me.user)).sort()).toEqual([w.first.id, w.second.id].sort());
    const album = (await w.me.client.getAlbum({ id: w.albumId })).album as Json;
    expect((album.song as Json[]).every((song) => song.starred !== undefined)).toBe(true);
    expect(await w.me.client.unstar({ albumId: w.albumId })).toMatchObject(ok);
    expect(await likedIds(w.me.user)).toEqual([]);
  });

  it('a starred artist is followed (getStarred2 lists them); unstar unfollows', async () => {
    const w = await world();
    expect(await w.me.client.star({ artistId: w.creator.id })).toMatchObject(ok);
    expect(await followingIds(w.me.user)).toEqual([w.creator.id]);
    expect(await inboxOf(w.creator, 1)).toEqual([['follow', w.me.user.id]]);
    const starred = (await w.me.client.getStarred2()).starred2 as Json;
    expect(starred.artist).toEqual([{ id: w.creator.id, name: w.creator.username, albumCount: 2 }]);
    // followed on the API: the same
    const other = await createUser(suite.server);
    await track(other, 'Elsewhere');
    expect((await suite.http.post(`/users/${other.id}/follow`, { token: w.me.user.accessToken })).status).toBe(200);
    expect(ids(((await w.me.client.getStarred2()).starred2 as Json).artist).sort()).toEqual(
      [w.creator.id, other.id].sort(),
    );
    expect(await w.me.client.unstar({ artistId: w.creator.id })).toMatchObject(ok);
    expect(await followingIds(w.me.user)).toEqual([other.id]);
    // oneself: not a follow
    expect(await w.me.client.star({ artistId: w.me.user.id })).toMatchObject(failed(70));
    const own = await player(w.creator);
    expect(await own.client.star({ artistId: w.creator.id })).toMatchObject(failed(0));
  });

  it('what the caller may not see is error 70 and nothing is starred; no id is 10; a read-only key 50', async () => {
    const w = await world();
    const moderator = await createModerator(suite.server);
    const hide = await suite.http.post(`/moderation/content/track/${w.second.id}/hide`, {
      token: moderator.accessToken,
      body: { note: 'Hidden for the test' },
    });
    expect(hide.status).toBe(200);
    const blocker = await createUser(suite.server);
    const blockedSong = await track(blocker, 'Blocked Song');
    expect((await suite.http.post(`/users/${blocker.id}/block`, { token: w.me.user.accessToken })).status).toBe(200);
    for (const id of [w.secret.id, w.second.id, blockedSong.id, 'not-an-id', '00000000-0000-4000-8000-000000000000']) {
      expect(await w.me.client.star({ id: [w.first.id, id] })).toMatchObject(failed(70));
    }
    expect(await w.me.client.star({ artistId: blocker.id })).toMatchObject(failed(70));
    expect(await w.me.client.star({ albumId: w.first.id })).toMatchObject(failed(70));
    expect(await likedIds(w.me.user)).toEqual([]);
    expect(await followingIds(w.me.user)).toEqual([]);
    expect(await w.me.client.star({})).toMatchObject(failed(10));
    expect(await w.me.client.unstar({})).toMatchObject(failed(10));
    // at most 500 ids in one call (each is a like or a play of its own): 501 change nothing
    const many = { ...w.me.sign, f: 'json', id: Array.from({ length: 501 }, () => w.first.id) };
    for (const method of ['star', 'scrobble']) {
      const reply = JSON.parse((await restCall(suite.server, method, many, { post: true })).text)['subsonic-response'];
      expect(reply, method).toMatchObject({ status: 'failed', error: { code: 0 } });
    }
    expect(await likedIds(w.me.user)).toEqual([]);
    expect(await w.me.client.setRating({ id: w.secret.id, rating: 3 })).toMatchObject(failed(70));
    expect(await w.me.client.scrobble({ id: blockedSong.id })).toMatchObject(failed(70));
    expect(await w.me.client.scrobble({ id: w.second.id, submission: false })).toMatchObject(failed(70));

    const key = await suite.http.post('/developer/api-keys', {
      token: w.me.user.accessToken,
      body: { name: 'k', scopes: ['read'] },
    });
    expect(key.status).toBe(201);
    const reader = subsonicClient(suite.server, { apiKey: key.body.data.key as string });
    expect(await reader.star({ id: w.first.id })).toMatchObject(failed(50));
    expect(await reader.unstar({ id: w.first.id })).toMatchObject(failed(50));
    expect(await reader.setRating({ id: w.first.id, rating: 2 })).toMatchObject(failed(50));
    expect(await reader.scrobble({ id: w.first.id })).toMatchObject(failed(50));
    expect(await reader.getStarred2()).toMatchObject(ok);
    expect(await reader.getNowPlaying()).toMatchObject(ok);
    expect(await likedIds(w.me.user)).toEqual([]);
  });
});

describe('setRating', () => {
  it('shows as userRating on the song; 0 removes it; outside 0–5 is error 0; albums and artists may be rated', async () => {
    const w = await world();
    const { client } = w.me;
    expect(await client.setRating({ id: w.first.id, rating: 4 })).toMatchObject(ok);
    expect(((await client.getSong({ id: w.first.id })).song as Json).userRating).toBe(4);
    const album = (await client.getAlbum({ id: w.albumId })).album as Json;
    expect((album.song as Json[]).map((song) => song.userRating)).toEqual([4, undefined]);
    // the caller's own: another listener sees none
    const other = await player();
    expect(((await other.client.getSong({ id: w.first.id })).song as Json).userRating).toBeUndefined();
    const xml = await restCall(suite.server, 'getSong', { ...w.me.sign, id: w.first.id });
    expect(xml.text).toContain('userRating="4"');
    await expectValidSubsonicXml(xml.text);

    expect(await client.setRating({ id: w.first.id, rating: 2 })).toMatchObject(ok);
    expect(((await client.getSong({ id: w.first.id })).song as Json).userRating).toBe(2);
    expect(await client.setRating({ id: w.first.id, rating: 0 })).toMatchObject(ok);
    expect(((await client.getSong({ id: w.first.id })).song as Json).userRating).toBeUndefined();
    expect(await client.setRating({ id: w.first.id, rating: 6 } as never)).toMatchObject(failed(0));
    expect(await client.setRating({ id: w.first.id, rating: -1 } as never)).toMatchObject(failed(0));
    expect(await client.setRating({ id: w.first.id } as never)).toMatchObject(failed(10));
    expect(await client.setRating({ rating: 3 } as never)).toMatchObject(failed(10));

    expect(await client.setRating({ id: w.albumId, rating: 5 })).toMatchObject(ok);
    expect(await client.setRating({ id: w.creator.id, rating: 3 })).toMatchObject(ok);
    expect(await client.setRating({ id: w.single.id, rating: 1 })).toMatchObject(ok);
    expect(((await client.getAlbum({ id: w.albumId })).album as Json).userRating).toBe(5);
    const artistDir = (await client.getMusicDirectory({ id: w.creator.id })).directory as Json;
    expect(artistDir.userRating).toBe(3);
    expect((artistDir.child as Json[]).map((child) => [child.title, child.userRating])).toEqual([
      [w.album, 5],
      ['Lone Wave', undefined],
    ]);
    for (const [name, id] of [
      ['getAlbum', w.albumId],
      ['getMusicDirectory', w.creator.id],
      ['getMusicDirectory', w.albumId],
    ] as const) {
      const reply = await restCall(suite.server, name, { ...w.me.sign, id });
      expect(reply.text).toContain('userRating="');
      await expectValidSubsonicXml(reply.text);
    }
    const exported = await suite.http.get('/users/me/export', { token: w.me.user.accessToken });
    expect(exported.status).toBe(200);
    const ratings = exported.body.subsonic_ratings as Json[];
    expect(ratings.map((row) => [row.item_type, row.item_id, row.rating])).toEqual([
      ['album', w.albumId, 5],
      ['artist', w.creator.id, 3],
      ['song', w.single.id, 1],
    ]);
  });
});

describe('scrobble and getNowPlaying', () => {
  it('a submission counts a play with source subsonic, in the history and the owner’s stats', async () => {
    const creator = await createUser(suite.server);
    const song = await track(creator, 'Long Enough', undefined, { seconds: 6 });
    const me = await player();
    expect(await me.client.scrobble({ id: song.id })).toMatchObject(ok);
    const history = await suite.http.get('/tracks/history', { token: me.user.accessToken });
    expect(history.status).toBe(200);
    expect((history.body.data.history as Json[]).map((entry) => [entry.track.id, entry.source])).toEqual([
      [song.id, 'subsonic'],
    ]);
    const stats = await suite.http.get(`/tracks/${song.id}/stats?period=all`, { token: creator.accessToken });
    expect(stats.status).toBe(200);
    expect(stats.body.data.stats).toMatchObject({ play_count: 1, sources: { subsonic: 1 } });
    // the owner sees the play count in a player too
    const owner = await player(creator);
    expect(((await owner.client.getSong({ id: song.id })).song as Json).playCount).toBe(1);
    const xml = await restCall(suite.server, 'scrobble', { ...me.sign, id: song.id, time: String(Date.now()) });
    expect(xml.text).toContain('status="ok"');
    await expectValidSubsonicXml(xml.text);
    expect(await me.client.scrobble({ id: song.id, time: 'soon' } as never)).toMatchObject(failed(0));
    expect(await me.client.scrobble({} as never)).toMatchObject(failed(10));
  });

  it('now playing shows to followers only, never a track the follower may not see', async () => {
    const w = await world();
    const listener = w.me;
    const follower = await player();
    const stranger = await player();
    expect(
      (await suite.http.post(`/users/${listener.user.id}/follow`, { token: follower.user.accessToken })).status,
    ).toBe(200);
    expect(await playing(follower)).toEqual([]);

    expect(await listener.client.scrobble({ id: w.first.id, submission: false })).toMatchObject(ok);
    const entries = ((await follower.client.getNowPlaying()).nowPlaying as Json).entry as Json[];
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      id: w.first.id,
      title: 'Tide One',
      artist: w.creator.username,
      albumId: w.albumId,
      username: listener.user.username,
      minutesAgo: 0,
      playerId: 0,
      playerName: 'subsonic-api',
    });
    expect(await playing(stranger)).toEqual([]);
    const xml = await restCall(suite.server, 'getNowPlaying', follower.sign);
    expect(xml.text).toContain(`username="${listener.user.username}"`);
    await expectValidSubsonicXml(xml.text);

    // the next song replaces it
    expect(await listener.client.scrobble({ id: w.single.id, submission: false })).toMatchObject(ok);
    expect(await playing(follower)).toEqual([w.single.id]);

    // the creator plays their own private track: their follower does not see it
    const creator = await player(w.creator);
    expect((await suite.http.post(`/users/${w.creator.id}/follow`, { token: follower.user.accessToken })).status).toBe(
      200,
    );
    expect(await creator.client.scrobble({ id: w.secret.id, submission: false })).toMatchObject(ok);
    expect(await playing(follower)).toEqual([w.single.id]);

    // a listener who keeps their listening to themselves is not shown
    const quiet = await suite.http.put('/users/me/preferences', {
      token: listener.user.accessToken,
      body: { privacy: { show_listening_history: false } },
    });
    expect(quiet.status).toBe(200);
    expect(await playing(follower)).toEqual([]);
  });
});

describe('account data', () => {
  it('the export holds the ratings and what is playing; erasing the account removes them', async () => {
    const w = await world();
    expect(await w.me.client.setRating({ id: w.first.id, rating: 5 })).toMatchObject(ok);
    expect(await w.me.client.scrobble({ id: w.single.id, submission: false })).toMatchObject(ok);
    const exported = await suite.http.get('/users/me/export', { token: w.me.user.accessToken });
    expect(exported.status).toBe(200);
    expect(exported.body.subsonic_ratings).toEqual([
      { item_type: 'song', item_id: w.first.id, rating: 5, rated_at: expect.any(String) },
    ]);
    expect(exported.body.subsonic_now_playing).toEqual({
      track_id: w.single.id,
      client: 'subsonic-api',
      started_at: expect.any(String),
    });
    const deleted = await suite.http.delete('/users/me', {
      token: w.me.user.accessToken,
      body: { confirm_text: 'DELETE', password: w.me.user.password, keep_public_tracks: false },
    });
    expect(deleted.status).toBe(200);
    const { db } = suite.server.riff.database;
    const entry = await db
      .selectFrom('audit_logs')
      .select('metadata')
      .where('user_id', '=', w.me.user.id)
      .where('action', '=', 'user.deleted')
      .executeTakeFirstOrThrow();
    expect(entry.metadata).toMatchObject({ removed_subsonic_ratings: 1, removed_now_playing: 1 });
    expect(
      await db.selectFrom('subsonic_ratings').select('item_id').where('user_id', '=', w.me.user.id).execute(),
    ).toEqual([]);
    expect(
      await db.selectFrom('subsonic_now_playing').select('track_id').where('user_id', '=', w.me.user.id).execute(),
    ).toEqual([]);
  });
});

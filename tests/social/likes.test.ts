import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { favoritesOf } from './social-support.js';

const suite = useTestServer();

describe('likes are the favorites playlist', () => {
  it('like and unlike are idempotent; the favorites playlist is made on first need, private, one per user, positions dense', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const [a, b, c] = await Promise.all([0, 1, 2].map((n) => createTrack(suite.server, owner, { title: `Song ${n}` })));
    expect((await favoritesOf(suite.server, fan.id)).playlists).toEqual([]);

    for (const track of [a!, b!, c!])
      expect(expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200).body.data).toEqual({
        liked: true,
      });
    expect(expectStatus(await fan.api.social.like({ params: { id: a!.id } }), 200).body.data).toEqual({ liked: true });

    const favorites = await favoritesOf(suite.server, fan.id);
    expect(favorites.playlists).toHaveLength(1);
    expect(favorites.playlists[0]).toMatchObject({ title: 'Favorites', is_public: false, is_default_favorites: true });
    expect(favorites.tracks).toEqual([
      { track_id: a!.id, position: 0 },
      { track_id: b!.id, position: 1 },
      { track_id: c!.id, position: 2 },
    ]);

    expect(expectStatus(await fan.api.social.unlike({ params: { id: b!.id } }), 200).body.data).toEqual({
      liked: false,
    });
    expect(expectStatus(await fan.api.social.unlike({ params: { id: b!.id } }), 200).body.data).toEqual({
      liked: false,
    });
    expect((await favoritesOf(suite.server, fan.id)).tracks).toEqual([
      { track_id: a!.id, position: 0 },
      { track_id: c!.id, position: 1 },
    ]);

    // like_count is real, and only its owner sees it
    const mine = expectStatus(await owner.api.tracks.get({ params: { id: a!.id } }), 200).body.data.track;
    expect(mine.like_count).toBe(1);
    const theirs = expectStatus(await fan.api.tracks.get({ params: { id: a!.id } }), 200).body.data.track;
    expect(theirs).not.toHaveProperty('like_count');
    expect(theirs).not.toHaveProperty('play_count');
    expect(expectStatus(await owner.api.tracks.get({ params: { id: b!.id } }), 200).body.data.track.like_count).toBe(0);
  });

  it('concurrent likes make one favorites playlist and count each track once', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const tracks = await Promise.all([0, 1, 2, 3].map(() => createTrack(suite.server, owner)));
    const replies = await Promise.all(
      [...tracks, ...tracks].map((track) => fan.api.social.like({ params: { id: track.id } })),
    );
    for (const reply of replies) expectStatus(reply, 200);
    const favorites = await favoritesOf(suite.server, fan.id);
    expect(favorites.playlists).toHaveLength(1);
    expect(favorites.tracks.map((row) => row.position)).toEqual([0, 1, 2, 3]);
    expect(new Set(favorites.tracks.map((row) => row.track_id))).toEqual(new Set(tracks.map((track) => track.id)));
    for (const track of tracks)
      expect(
        expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track.like_count,
      ).toBe(1);
  });

  it('private tracks of others cannot be liked (404); bad ids are 400; anonymous is 401; blocked is 403', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    expect(expectStatus(await fan.api.social.like({ params: { id: hidden.id } }), 404).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect(expectStatus(await fan.api.social.like({ params: { id: 'nope' } }), 400).body.error.code).toBe('INVALID_ID');
    expectStatus(await suite.api.social.like({ params: { id: hidden.id } }), 401);
    expectStatus(await owner.api.social.like({ params: { id: hidden.id } }), 200);
    const open = await createTrack(suite.server, owner);
    expectStatus(await owner.api.users.block({ params: { id: fan.id } }), 200);
    expect(expectStatus(await fan.api.social.like({ params: { id: open.id } }), 403).body.error.code).toBe('FORBIDDEN');
  });

  it('a track made private after the like can still be unliked by the liker', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await owner.api.tracks.update({ params: { id: track.id }, body: { is_public: false } }), 200);
    // the like list shows only what the caller may see
    expect(expectStatus(await fan.api.social.userLikes({ params: { id: 'me' } }), 200).body.data.tracks).toEqual([]);
    expectStatus(await fan.api.social.unlike({ params: { id: track.id } }), 200);
    expect((await favoritesOf(suite.server, fan.id)).tracks).toEqual([]);
    expectStatus(await fan.api.social.unlike({ params: { id: track.id } }), 404);
  });

  it('GET /tracks/{id}/likes: the owner and admins see the likers, newest first; another user 403', async () => {
    const owner = await createUser(suite.server);
    const [first, second] = [await createUser(suite.server), await createUser(suite.server)];
    const track = await createTrack(suite.server, owner);
    expectStatus(await first.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await second.api.social.like({ params: { id: track.id } }), 200);
    const likers = expectStatus(await owner.api.social.likers({ params: { id: track.id } }), 200).body.data;
    expect(likers.users.map((user) => user.id)).toEqual([second.id, first.id]);
    expect(likers.pagination).toEqual({ page: 1, limit: 20, total: 2, total_pages: 1 });
    expect(likers.users[0]).not.toHaveProperty('email');
    const admin = await createAdmin(suite.server);
    expect(
      expectStatus(
        await admin.api.social.likers({ params: { id: track.id }, query: { limit: 1, page: 2 } }),
        200,
      ).body.data.users.map((u) => u.id),
    ).toEqual([first.id]);
    expect(expectStatus(await first.api.social.likers({ params: { id: track.id } }), 403).body.error.code).toBe(
      'FORBIDDEN',
    );
    expectStatus(await suite.api.social.likers({ params: { id: track.id } }), 401);
  });

  it('GET /users/{id}/likes lists what the caller may see, newest first; me needs a sign-in', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const open = await createTrack(suite.server, owner, { title: 'Open' });
    const hidden = await createTrack(suite.server, owner, { isPublic: false, title: 'Hidden' });
    expectStatus(await owner.api.social.like({ params: { id: hidden.id } }), 200);
    expectStatus(await owner.api.social.like({ params: { id: open.id } }), 200);
    const asOwner = expectStatus(await owner.api.social.userLikes({ params: { id: 'me' } }), 200).body.data;
    expect(asOwner.tracks.map((track) => track.title)).toEqual(['Open', 'Hidden']);
    expect(asOwner.tracks[0]!.like_count).toBe(1);
    const asOther = expectStatus(await fan.api.social.userLikes({ params: { id: owner.id } }), 200).body.data;
    expect(asOther.tracks.map((track) => track.title)).toEqual(['Open']);
    expect(asOther.tracks[0]).not.toHaveProperty('like_count');
    expect(asOther.pagination.total).toBe(1);
    expect(
      expectStatus(await suite.api.social.userLikes({ params: { id: owner.id } }), 200).body.data.tracks,
    ).toHaveLength(1);
    expectStatus(await suite.api.social.userLikes({ params: { id: 'me' } }), 401);
    expectStatus(await suite.api.social.userLikes({ params: { id: '00000000-0000-4000-8000-000000000000' } }), 404);
  });

  it('each like and unlike is in the liker’s audit log', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await fan.api.social.like({ params: { id: track.id } }), 200);
    expectStatus(await fan.api.social.unlike({ params: { id: track.id } }), 200);
    const logs = expectStatus(await fan.api.audit.logs({ query: { resource: 'track' } }), 200).body.data.logs;
    expect(logs.map((log) => log.action).sort()).toEqual(['track.liked', 'track.unliked']);
    expect(logs.every((log) => log.resource_id === track.id)).toBe(true);
  });
});

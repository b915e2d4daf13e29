import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { PLAYLIST_TITLE_MAX } from '@riff/contract';
import { expireShareLink } from '../support/backdate.js';
import { createUser } from '../support/factories.js';
import { seedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { addTracks, createPlaylist, errorOf, readPlaylist, trackIdsOf } from './playlist-helpers.js';

const suite = useTestServer();

describe('share links', () => {
  it('shows the playlist and its public tracks to anyone holding the link; only the hash is stored', async () => {
    const owner = await createUser(suite.server);
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const [hidden] = await seedTracks(suite.server, owner.id, 1, false);
    const playlist = await createPlaylist(owner);
    await addTracks(owner, playlist.id, [a!, hidden!, b!]);
    const share = expectStatus(await owner.api.playlists.share({ params: { id: playlist.id }, body: {} }), 200).body
      .data;
    expect(share.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(share.share_url.endsWith(`/api/v1/playlists/shared/${share.token}`)).toBe(true);
    expect(share.expires_at).toBeNull();

    const seen = expectStatus(await suite.api.playlists.shared({ params: { token: share.token }, query: {} }), 200).body
      .data.playlist;
    expect(seen.id).toBe(playlist.id);
    expect(seen.tracks!.map((entry) => [entry.track_id, entry.position])).toEqual([
      [a, 0],
      [b, 2],
    ]);
    expect(seen.track_count).toBe(2);
    // the owner signed in sees the same through the link: the public tracks
    expect(
      trackIdsOf(
        expectStatus(await owner.api.playlists.shared({ params: { token: share.token }, query: {} }), 200).body.data
          .playlist,
      ),
    ).toEqual([a, b]);
    const stored = await sql<{
      share_token_hash: string;
    }>`select share_token_hash from playlists where id = ${playlist.id}`.execute(suite.server.riff.platform.scope.db);
    expect(stored.rows[0]!.share_token_hash).not.toContain(share.token);
  });

  it('a new link replaces the old; revoking stops it at once (idempotent); unknown or expired is 404', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner);
    const first = expectStatus(await owner.api.playlists.share({ params: { id: playlist.id }, body: {} }), 200).body
      .data;
    const second = expectStatus(
      await owner.api.playlists.share({ params: { id: playlist.id }, body: { expires_in_days: 7 } }),
      200,
    ).body.data;
    expect(Date.parse(second.expires_at!) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(errorOf(await suite.api.playlists.shared({ params: { token: first.token }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expectStatus(await suite.api.playlists.shared({ params: { token: second.token }, query: {} }), 200);

    await expireShareLink(suite.server, playlist.id);
    expect(errorOf(await suite.api.playlists.shared({ params: { token: second.token }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);

    const third = expectStatus(await owner.api.playlists.share({ params: { id: playlist.id }, body: {} }), 200).body
      .data;
    expectStatus(await owner.api.playlists.revokeShare({ params: { id: playlist.id } }), 200);
    expectStatus(await owner.api.playlists.revokeShare({ params: { id: playlist.id } }), 200);
    expect(errorOf(await suite.api.playlists.shared({ params: { token: third.token }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await suite.api.playlists.shared({ params: { token: 'abc' }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect((await suite.http.get('/playlists/shared/not%20a%20token', {})).status).toBe(400);
    expect(
      errorOf(await owner.api.playlists.share({ params: { id: playlist.id }, body: { expires_in_days: 0 } })),
    ).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('copies', () => {
  it('makes a private copy owned by the caller with the tracks they may see, in order; title defaults to "<title> (copy)", cut', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const [hidden] = await seedTracks(suite.server, owner.id, 1, false);
    const playlist = await createPlaylist(owner, {
      title: 'x'.repeat(PLAYLIST_TITLE_MAX),
      description: 'd',
      is_public: true,
    });
    await addTracks(owner, playlist.id, [b!, hidden!, a!]);
    const copy = expectStatus(await fan!.api.playlists.duplicate({ params: { id: playlist.id }, body: {} }), 201).body
      .data.playlist;
    expect(copy).toMatchObject({
      user_id: fan.id,
      is_public: false,
      description: 'd',
      track_count: 2,
      follower_count: 0,
    });
    expect(copy.title).toBe(`${'x'.repeat(PLAYLIST_TITLE_MAX - 7)} (copy)`);
    expect(copy.tracks!.map((entry) => [entry.track_id, entry.position, entry.added_by])).toEqual([
      [b, 0, fan.id],
      [a, 1, fan.id],
    ]);
    const named = expectStatus(
      await owner.api.playlists.duplicate({ params: { id: playlist.id }, body: { title: 'Mine' } }),
      201,
    ).body.data.playlist;
    expect([named.title, trackIdsOf(named)]).toEqual(['Mine', [b, hidden, a]]);
    const stranger = await createUser(suite.server);
    const hiddenList = await createPlaylist(owner);
    expect(errorOf(await stranger.api.playlists.duplicate({ params: { id: hiddenList.id }, body: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });
});

describe('followers', () => {
  it('follows public playlists of others, idempotently, keeping follower_count; unfollow works after it went private', async () => {
    const owner = await createUser(suite.server);
    const [fan, other, reader] = await Promise.all([1, 2, 3].map(() => createUser(suite.server)));
    const playlist = await createPlaylist(owner, { is_public: true });
    expect(expectStatus(await fan!.api.playlists.follow({ params: { id: playlist.id } }), 200).body.data).toEqual({
      following: true,
      follower_count: 1,
    });
    expect(expectStatus(await fan!.api.playlists.follow({ params: { id: playlist.id } }), 200).body.data).toEqual({
      following: true,
      follower_count: 1,
    });
    expect(
      expectStatus(await other!.api.playlists.follow({ params: { id: playlist.id } }), 200).body.data.follower_count,
    ).toBe(2);
    expect((await readPlaylist(fan!, playlist.id)).playlist).toMatchObject({ is_following: true, follower_count: 2 });
    expect(errorOf(await owner.api.playlists.follow({ params: { id: playlist.id } }))).toEqual([400, 'BAD_REQUEST']);

    expectStatus(await owner.api.playlists.update({ params: { id: playlist.id }, body: { is_public: false } }), 200);
    expect(expectStatus(await fan!.api.playlists.unfollow({ params: { id: playlist.id } }), 200).body.data).toEqual({
      following: false,
      follower_count: 1,
    });
    // once left, a private playlist no longer exists for them
    expect(errorOf(await fan!.api.playlists.unfollow({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await fan!.api.playlists.follow({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
    // on a public one, unfollowing again is a no-op
    expectStatus(await owner.api.playlists.update({ params: { id: playlist.id }, body: { is_public: true } }), 200);
    expect(expectStatus(await other!.api.playlists.unfollow({ params: { id: playlist.id } }), 200).body.data).toEqual({
      following: false,
      follower_count: 0,
    });
    expect(expectStatus(await other!.api.playlists.unfollow({ params: { id: playlist.id } }), 200).body.data).toEqual({
      following: false,
      follower_count: 0,
    });
    expectStatus(await owner.api.playlists.update({ params: { id: playlist.id }, body: { is_public: false } }), 200);
    // a private playlist one may see (a collaborator) cannot be followed
    expectStatus(
      await owner.api.playlists.addCollaborator({
        params: { id: playlist.id },
        body: { user_id: reader!.id, permission: 'read' },
      }),
      201,
    );
    expect(errorOf(await reader!.api.playlists.follow({ params: { id: playlist.id } }))).toEqual([400, 'BAD_REQUEST']);
  });
});

describe('account data', () => {
  it('exports my playlists with their track ids, my collaborations and follows; erasure removes them and the follower counts', async () => {
    const me = await createUser(suite.server);
    const friend = await createUser(suite.server);
    const [a, b] = await seedTracks(suite.server, me.id, 2);
    const mine = await createPlaylist(me, { title: 'Mine' });
    await addTracks(me, mine.id, [b!, a!]);
    const theirs = await createPlaylist(friend, { is_public: true });
    expectStatus(
      await friend.api.playlists.addCollaborator({
        params: { id: theirs.id },
        body: { user_id: me.id, permission: 'write' },
      }),
      201,
    );
    expectStatus(await me.api.playlists.follow({ params: { id: theirs.id } }), 200);

    const exported = expectStatus(await me.api.users.exportData(), 200).body;
    expect(exported.playlists).toEqual([
      {
        id: mine.id,
        title: 'Mine',
        description: null,
        is_public: false,
        is_default_favorites: false,
        track_ids: [b, a],
        created_at: mine.created_at,
      },
    ]);
    expect(exported.playlist_collaborations).toEqual([
      { playlist_id: theirs.id, permission: 'write', since: expect.any(String) },
    ]);
    expect(exported.playlist_follows).toEqual([{ playlist_id: theirs.id, since: expect.any(String) }]);

    expectStatus(await me.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: me.password } }), 200);
    const after = (await readPlaylist(friend, theirs.id)).playlist;
    expect([after.follower_count, after.collaborators]).toEqual([0, []]);
    const left = await sql<{ n: number }>`select count(*)::int as n from playlists where user_id = ${me.id}`.execute(
      suite.server.riff.platform.scope.db,
    );
    expect(left.rows[0]!.n).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PLAYLIST_MAX_TRACKS } from '@riff/contract';
import { createTrack, createUser } from '../support/factories.js';
import { seedEntries, seedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import {
  addTracks,
  createPlaylist,
  errorOf,
  positionsOf,
  readAllTracks,
  readPlaylist,
  trackIdsOf,
} from './playlist-helpers.js';

const suite = useTestServer();

describe("a playlist's tracks", () => {
  it('adds at the end or at a position (the rest move down), removes (the rest move up), positions stay 0…n-1', async () => {
    const owner = await createUser(suite.server);
    const [a, b, c, d] = await seedTracks(suite.server, owner.id, 4);
    const playlist = await createPlaylist(owner);
    await addTracks(owner, playlist.id, [a!, b!]);
    const first = expectStatus(
      await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: c!, position: 0 } }),
      200,
    );
    expect(first.headers.get('etag')).toBe(`"${first.body.data.snapshot_id}"`);
    const last = expectStatus(
      await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: d!, position: 99 } }),
      200,
    );
    let read = (await readPlaylist(owner, playlist.id)).playlist;
    expect(trackIdsOf(read)).toEqual([c, a, b, d]);
    expect(positionsOf(read)).toEqual([0, 1, 2, 3]);
    expect(read.snapshot_id).toBe(last.body.data.snapshot_id);
    expect(last.body.data.snapshot_id).not.toBe(first.body.data.snapshot_id);

    const removed = expectStatus(
      await owner.api.playlists.removeTrack({ params: { id: playlist.id, trackId: a! } }),
      200,
    );
    read = (await readPlaylist(owner, playlist.id)).playlist;
    expect(trackIdsOf(read)).toEqual([c, b, d]);
    expect(positionsOf(read)).toEqual([0, 1, 2]);
    expect(read.snapshot_id).toBe(removed.body.data.snapshot_id);
    expect(errorOf(await owner.api.playlists.removeTrack({ params: { id: playlist.id, trackId: a! } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('refuses a track already there (400 TRACK_ALREADY_IN_PLAYLIST), one the caller may not see or that does not exist (404)', async () => {
    const owner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const [mine] = await seedTracks(suite.server, owner.id, 1);
    const [theirPrivate] = await seedTracks(suite.server, stranger.id, 1, false);
    const playlist = await createPlaylist(owner);
    await addTracks(owner, playlist.id, [mine!]);
    expect(
      errorOf(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: mine! } })),
    ).toEqual([400, 'TRACK_ALREADY_IN_PLAYLIST']);
    expect(
      errorOf(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: theirPrivate! } })),
    ).toEqual([404, 'NOT_FOUND']);
    expect(
      errorOf(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: randomUUID() } })),
    ).toEqual([404, 'NOT_FOUND']);
    expect(
      errorOf(
        await suite.http.post(`/playlists/${playlist.id}/tracks`, { token: owner.token, body: { track_id: 'nope' } }),
      ),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect((await readPlaylist(owner, playlist.id)).playlist.track_count).toBe(1);
  });

  it('a stale If-Match on a track write is 412 and changes nothing', async () => {
    const owner = await createUser(suite.server);
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const playlist = await createPlaylist(owner);
    const added = expectStatus(
      await owner.api.playlists.addTrack({
        params: { id: playlist.id },
        body: { track_id: a! },
        headers: { 'if-match': playlist.snapshot_id },
      }),
      200,
    );
    const stale = { 'if-match': `"${playlist.snapshot_id}"` };
    expect(
      errorOf(
        await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: b! }, headers: stale }),
      ),
    ).toEqual([412, 'PRECONDITION_FAILED']);
    expect(
      errorOf(await owner.api.playlists.removeTrack({ params: { id: playlist.id, trackId: a! }, headers: stale })),
    ).toEqual([412, 'PRECONDITION_FAILED']);
    expect(
      errorOf(
        await owner.api.playlists.reorder({ params: { id: playlist.id }, body: { track_ids: [a!] }, headers: stale }),
      ),
    ).toEqual([412, 'PRECONDITION_FAILED']);
    const read = (await readPlaylist(owner, playlist.id)).playlist;
    expect([trackIdsOf(read), read.snapshot_id]).toEqual([[a], added.body.data.snapshot_id]);
  });

  it(`holds at most ${PLAYLIST_MAX_TRACKS} tracks (400 LIMIT_REACHED)`, async () => {
    const owner = await createUser(suite.server);
    const ids = await seedTracks(suite.server, owner.id, PLAYLIST_MAX_TRACKS + 1);
    const playlist = await createPlaylist(owner);
    await seedEntries(suite.server, playlist.id, ids.slice(0, PLAYLIST_MAX_TRACKS), owner.id);
    expect(
      errorOf(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: ids.at(-1)! } })),
    ).toEqual([400, 'LIMIT_REACHED']);
  });
});

describe('reordering', () => {
  it('takes the complete new order, those the caller may not see included; anything else is 400 and changes nothing', async () => {
    const owner = await createUser(suite.server);
    const editor = await createUser(suite.server);
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const [hidden] = await seedTracks(suite.server, owner.id, 1, false);
    const playlist = await createPlaylist(owner);
    await addTracks(owner, playlist.id, [a!, hidden!, b!]);
    expectStatus(
      await owner.api.playlists.addCollaborator({
        params: { id: playlist.id },
        body: { user_id: editor.id, permission: 'write' },
      }),
      201,
    );
    const before = (await readPlaylist(owner, playlist.id)).playlist;
    for (const track_ids of [
      [b!, a!],
      [b!, a!, a!],
      [b!, a!, hidden!, a!],
      [b!, a!, randomUUID()],
    ]) {
      expect(errorOf(await editor.api.playlists.reorder({ params: { id: playlist.id }, body: { track_ids } }))).toEqual(
        [400, 'VALIDATION_FAILED'],
      );
    }
    expect((await readPlaylist(owner, playlist.id)).playlist.snapshot_id).toBe(before.snapshot_id);
    const done = expectStatus(
      await editor.api.playlists.reorder({ params: { id: playlist.id }, body: { track_ids: [b!, hidden!, a!] } }),
      200,
    );
    const read = (await readPlaylist(owner, playlist.id)).playlist;
    expect([trackIdsOf(read), positionsOf(read), read.snapshot_id]).toEqual([
      [b, hidden, a],
      [0, 1, 2],
      done.body.data.snapshot_id,
    ]);
    // the editor does not see the private track: the others keep their positions
    const seen = (await readPlaylist(editor, playlist.id)).playlist;
    expect(seen.tracks!.map((entry) => [entry.track_id, entry.position])).toEqual([
      [b, 0],
      [a, 2],
    ]);
  });

  it(`reverses ${PLAYLIST_MAX_TRACKS} tracks in one request, and reads them back by position and page`, async () => {
    const owner = await createUser(suite.server);
    const ids = await seedTracks(suite.server, owner.id, PLAYLIST_MAX_TRACKS);
    const playlist = await createPlaylist(owner, { is_public: true });
    await seedEntries(suite.server, playlist.id, ids, owner.id);
    const reversed = [...ids].reverse();
    expectStatus(
      await owner.api.playlists.reorder({ params: { id: playlist.id }, body: { track_ids: reversed } }),
      200,
    );
    const read = await readAllTracks(owner, playlist.id);
    expect(read.trackCount).toBe(PLAYLIST_MAX_TRACKS);
    expect(read.tracks.map((entry) => entry.track_id)).toEqual(reversed);
    expect(read.tracks.map((entry) => entry.position)).toEqual(reversed.map((_, index) => index));
    const page = expectStatus(
      await owner.api.playlists.get({ params: { id: playlist.id }, query: { tracks_offset: 9_990, tracks_limit: 5 } }),
      200,
    );
    expect(page.body.data.playlist.tracks!.map((entry) => entry.position)).toEqual([9_990, 9_991, 9_992, 9_993, 9_994]);
  }, 120_000);
});

describe('concurrent writers', () => {
  it('loses nothing when two collaborators add 20 tracks at once: all present, positions dense', async () => {
    const owner = await createUser(suite.server);
    const editor = await createUser(suite.server);
    const ids = await seedTracks(suite.server, owner.id, 20);
    const playlist = await createPlaylist(owner);
    expectStatus(
      await owner.api.playlists.addCollaborator({
        params: { id: playlist.id },
        body: { user_id: editor.id, permission: 'write' },
      }),
      201,
    );
    const replies = await Promise.all(
      ids.map((trackId, index) =>
        (index % 2 === 0 ? owner : editor).api.playlists.addTrack({
          params: { id: playlist.id },
          body: { track_id: trackId, position: index % 3 === 0 ? 0 : undefined },
        }),
      ),
    );
    for (const reply of replies) expect(reply.status).toBe(200);
    const read = (await readPlaylist(owner, playlist.id)).playlist;
    expect(new Set(trackIdsOf(read))).toEqual(new Set(ids));
    expect(positionsOf(read)).toEqual(ids.map((_, index) => index));
    // one snapshot per write
    expect(
      new Set(replies.map((reply) => (reply.body as { data: { snapshot_id: string } }).data.snapshot_id)).size,
    ).toBe(20);
  });
});

describe('the favorites playlist', () => {
  it('is made empty on first read; adding likes the track, removing unlikes it (like_count and likes agree)', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user, { title: 'Loved' });
    const first = expectStatus(await user.api.playlists.favorites({ query: {} }), 200);
    const favorites = first.body.data.playlist;
    expect(favorites).toMatchObject({
      is_default_favorites: true,
      is_public: false,
      title: 'Favorites',
      track_count: 0,
      tracks: [],
    });
    expect(first.headers.get('etag')).toBe(`"${favorites.snapshot_id}"`);
    expect(expectStatus(await user.api.playlists.favorites({ query: {} }), 200).body.data.playlist.id).toBe(
      favorites.id,
    );

    expectStatus(
      await user.api.playlists.addTrack({ params: { id: favorites.id }, body: { track_id: track.id } }),
      200,
    );
    expect(expectStatus(await user.api.tracks.get({ params: { id: track.id } }), 200).body.data.track.like_count).toBe(
      1,
    );
    expect(
      expectStatus(await user.api.social.userLikes({ params: { id: 'me' }, query: {} }), 200).body.data.tracks.map(
        (t) => t.id,
      ),
    ).toEqual([track.id]);
    expect(
      errorOf(await user.api.playlists.addTrack({ params: { id: favorites.id }, body: { track_id: track.id } })),
    ).toEqual([400, 'TRACK_ALREADY_IN_PLAYLIST']);

    expectStatus(await user.api.playlists.removeTrack({ params: { id: favorites.id, trackId: track.id } }), 200);
    expect(expectStatus(await user.api.tracks.get({ params: { id: track.id } }), 200).body.data.track.like_count).toBe(
      0,
    );
    expect(
      expectStatus(await user.api.social.userLikes({ params: { id: 'me' }, query: {} }), 200).body.data.tracks,
    ).toEqual([]);
    // liking from the track's page fills the same playlist; adding at a position puts it there
    expectStatus(await user.api.social.like({ params: { id: track.id } }), 200);
    const [other] = await seedTracks(suite.server, user.id, 1);
    expectStatus(
      await user.api.playlists.addTrack({ params: { id: favorites.id }, body: { track_id: other!, position: 0 } }),
      200,
    );
    const filled = expectStatus(await user.api.playlists.favorites({ query: {} }), 200).body.data.playlist;
    expect([trackIdsOf(filled), positionsOf(filled)]).toEqual([
      [other, track.id],
      [0, 1],
    ]);
    expect(expectStatus(await user.api.social.unlike({ params: { id: track.id } }), 200).body.data.liked).toBe(false);
  });

  it('cannot be deleted, made public, shared or given collaborators (400)', async () => {
    const user = await createUser(suite.server);
    const friend = await createUser(suite.server);
    const favorites = expectStatus(await user.api.playlists.favorites({ query: {} }), 200).body.data.playlist;
    expect(errorOf(await user.api.playlists.remove({ params: { id: favorites.id } }))).toEqual([400, 'BAD_REQUEST']);
    expect(
      errorOf(await user.api.playlists.update({ params: { id: favorites.id }, body: { is_public: true } })),
    ).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await user.api.playlists.share({ params: { id: favorites.id }, body: {} }))).toEqual([
      400,
      'BAD_REQUEST',
    ]);
    expect(
      errorOf(
        await user.api.playlists.addCollaborator({
          params: { id: favorites.id },
          body: { user_id: friend.id, permission: 'read' },
        }),
      ),
    ).toEqual([400, 'BAD_REQUEST']);
    expect((await readPlaylist(user, favorites.id)).playlist.is_public).toBe(false);
  });
});

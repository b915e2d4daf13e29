import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { PLAYLISTS_PER_USER_MAX } from '@riff/contract';
import { createAdmin } from '../support/admin-factory.js';
import { createTrack, createUser } from '../support/factories.js';
import { seedPlaylists, seedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { addTracks, createPlaylist, errorOf, readPlaylist, trackIdsOf } from './playlist-helpers.js';

const suite = useTestServer();

describe('playlists: create, read, edit, delete', () => {
  it('creates a private playlist by default, served with its ETag; If-None-Match answers 304', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner, { title: '  Night drives  ', description: 'for the road' });
    expect(playlist).toMatchObject({
      user_id: owner.id,
      title: 'Night drives',
      description: 'for the road',
      is_public: false,
      is_default_favorites: false,
      is_editorial: false,
      follower_count: 0,
      track_count: 0,
      cover_url: null,
      is_following: false,
      tracks: [],
      collaborators: [],
    });
    const { etag } = await readPlaylist(owner, playlist.id);
    expect(etag).toBe(`"${playlist.snapshot_id}"`);
    const again = await suite.http.get(`/playlists/${playlist.id}`, {
      token: owner.token,
      headers: { 'If-None-Match': etag! },
    });
    expect([again.status, again.text]).toEqual([304, '']);
    const weak = await suite.http.get(`/playlists/${playlist.id}`, {
      token: owner.token,
      headers: { 'If-None-Match': `W/${etag}` },
    });
    expect(weak.status).toBe(304);
    const stale = await suite.http.get(`/playlists/${playlist.id}`, {
      token: owner.token,
      headers: { 'If-None-Match': '"0"' },
    });
    expect(stale.status).toBe(200);
  });

  it('validates bodies and ids: 400 for a bad title or a malformed id, 404 for an unknown one', async () => {
    const owner = await createUser(suite.server);
    expect(errorOf(await suite.http.post('/playlists', { token: owner.token, body: { title: '' } }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    expect(
      errorOf(await suite.http.post('/playlists', { token: owner.token, body: { title: 'x'.repeat(201) } })),
    ).toEqual([400, 'VALIDATION_FAILED']);
    expect(errorOf(await suite.http.get('/playlists/not-a-uuid', { token: owner.token }))).toEqual([400, 'INVALID_ID']);
    expect(errorOf(await owner.api.playlists.get({ params: { id: randomUUID() } }))).toEqual([404, 'NOT_FOUND']);
    expect((await suite.http.get('/playlists', {})).status).toBe(401);
  });

  it('shows a private playlist to nobody else (404), a public one to every signed-in user', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const hidden = await createPlaylist(owner);
    const shown = await createPlaylist(owner, { is_public: true });
    expect(errorOf(await other.api.playlists.get({ params: { id: hidden.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await other.api.playlists.update({ params: { id: hidden.id }, body: { title: 'x' } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await other.api.playlists.remove({ params: { id: hidden.id } }))).toEqual([404, 'NOT_FOUND']);
    expect((await readPlaylist(other, shown.id)).playlist.id).toBe(shown.id);
    // seeing is not editing
    expect(errorOf(await other.api.playlists.update({ params: { id: shown.id }, body: { title: 'x' } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(errorOf(await other.api.playlists.remove({ params: { id: shown.id } }))).toEqual([403, 'FORBIDDEN']);
    // nor do the service's admins see a private one
    const admin = await createAdmin(suite.server);
    expect(errorOf(await admin.api.playlists.get({ params: { id: hidden.id } }))).toEqual([404, 'NOT_FOUND']);
  });

  it('edits details with a new snapshot_id and ETag; a stale If-Match is 412 and changes nothing; * and W/ are accepted', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner);
    const first = expectStatus(
      await owner.api.playlists.update({
        params: { id: playlist.id },
        body: { title: 'Renamed', description: null, is_public: true },
        headers: { 'if-match': `"${playlist.snapshot_id}"` },
      }),
      200,
    );
    const edited = first.body.data.playlist;
    expect(edited).toMatchObject({ title: 'Renamed', description: null, is_public: true });
    expect(edited.snapshot_id).not.toBe(playlist.snapshot_id);
    expect(first.headers.get('etag')).toBe(`"${edited.snapshot_id}"`);
    const stale = await owner.api.playlists.update({
      params: { id: playlist.id },
      body: { title: 'Lost' },
      headers: { 'if-match': playlist.snapshot_id },
    });
    expect(errorOf(stale)).toEqual([412, 'PRECONDITION_FAILED']);
    expect(
      errorOf(await owner.api.playlists.remove({ params: { id: playlist.id }, headers: { 'if-match': 'W/"0"' } })),
    ).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await readPlaylist(owner, playlist.id)).playlist.title).toBe('Renamed');
    expectStatus(
      await owner.api.playlists.update({
        params: { id: playlist.id },
        body: { title: 'Star' },
        headers: { 'if-match': '*' },
      }),
      200,
    );
    expectStatus(
      await owner.api.playlists.update({
        params: { id: playlist.id },
        body: { title: 'Weak' },
        headers: { 'if-match': `W/"${(await readPlaylist(owner, playlist.id)).playlist.snapshot_id}"` },
      }),
      200,
    );
  });

  it('two writes with the same If-Match: one succeeds, the other is 412', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner);
    const ifMatch = `"${playlist.snapshot_id}"`;
    const replies = await Promise.all(
      ['A', 'B'].map((title) =>
        owner.api.playlists.update({ params: { id: playlist.id }, body: { title }, headers: { 'if-match': ifMatch } }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 412]);
  });

  it('sets is_editorial for admins of the service only', async () => {
    const owner = await createUser(suite.server);
    const admin = await createAdmin(suite.server);
    const playlist = await createPlaylist(owner, { is_public: true });
    expect(
      errorOf(await owner.api.playlists.update({ params: { id: playlist.id }, body: { is_editorial: true } })),
    ).toEqual([403, 'FORBIDDEN']);
    const stranger = await createUser(suite.server);
    const hidden = await createPlaylist(owner);
    expect(
      errorOf(await stranger.api.playlists.update({ params: { id: hidden.id }, body: { is_editorial: true } })),
    ).toEqual([404, 'NOT_FOUND']);
    const flagged = expectStatus(
      await admin.api.playlists.update({ params: { id: playlist.id }, body: { is_editorial: true } }),
      200,
    );
    expect(flagged.body.data.playlist.is_editorial).toBe(true);
  });

  it('deletes for the owner only; the playlist is gone', async () => {
    const owner = await createUser(suite.server);
    const playlist = await createPlaylist(owner);
    expectStatus(
      await owner.api.playlists.remove({ params: { id: playlist.id }, headers: { 'if-match': playlist.snapshot_id } }),
      200,
    );
    expect(errorOf(await owner.api.playlists.get({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
  });
});

describe('listing playlists', () => {
  it('without user_id: own and collaborating, newest first, with track_count and no tracks; with user_id: what the caller may see', async () => {
    const owner = await createUser(suite.server);
    const friend = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    const older = await createPlaylist(owner, { title: 'Older', is_public: true });
    await addTracks(owner, older.id, [track.id, hidden.id]);
    const newer = await createPlaylist(owner, { title: 'Newer' });
    const theirs = await createPlaylist(friend, { title: 'Theirs' });
    expectStatus(
      await friend.api.playlists.addCollaborator({
        params: { id: theirs.id },
        body: { user_id: owner.id, permission: 'read' },
      }),
      201,
    );

    const mine = expectStatus(await owner.api.playlists.list({ query: {} }), 200).body.data;
    expect(mine.playlists.map((p) => p.title)).toEqual(['Theirs', 'Newer', 'Older']);
    expect(mine.pagination).toEqual({ page: 1, limit: 20, total: 3, total_pages: 1 });
    for (const playlist of mine.playlists) expect(playlist.tracks).toBeUndefined();
    expect(mine.playlists.find((p) => p.id === older.id)?.track_count).toBe(2);

    const seenByFriend = expectStatus(await friend.api.playlists.list({ query: { user_id: owner.id } }), 200).body.data;
    expect(seenByFriend.playlists.map((p) => p.id)).toEqual([older.id]);
    // the private track is not the friend's to see: not counted
    expect(seenByFriend.playlists[0]!.track_count).toBe(1);
    const me = expectStatus(await owner.api.playlists.list({ query: { user_id: 'me' } }), 200).body.data;
    expect(me.playlists.map((p) => p.id)).toEqual([newer.id, older.id]);
    const paged = expectStatus(await owner.api.playlists.list({ query: { limit: 1, page: 2 } }), 200).body.data;
    expect([paged.playlists.map((p) => p.id), paged.pagination.total]).toEqual([[newer.id], 3]);
    expect(errorOf(await owner.api.playlists.list({ query: { user_id: randomUUID() } }))).toEqual([404, 'NOT_FOUND']);
  });
});

describe('the tracks a caller sees', () => {
  it('leaves out tracks the caller may not see (count too), the others keep their positions; pages with tracks_offset/limit', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((title) => createTrack(suite.server, owner, { title })));
    const secret = await createTrack(suite.server, owner, { title: 'Secret', isPublic: false });
    const playlist = await createPlaylist(owner, { is_public: true });
    await addTracks(owner, playlist.id, [a!.id, secret.id, b!.id, c!.id]);

    const own = (await readPlaylist(owner, playlist.id)).playlist;
    expect([trackIdsOf(own), own.track_count]).toEqual([[a!.id, secret.id, b!.id, c!.id], 4]);
    expect(own.cover_url).toBeNull();
    const seen = (await readPlaylist(other, playlist.id)).playlist;
    expect(seen.track_count).toBe(3);
    expect(seen.tracks!.map((entry) => [entry.track_id, entry.position])).toEqual([
      [a!.id, 0],
      [b!.id, 2],
      [c!.id, 3],
    ]);
    expect(seen.tracks![0]).toMatchObject({
      playlist_id: playlist.id,
      added_by: owner.id,
      track: { id: a!.id, title: 'A' },
    });
    // counts are the owner's only, as on the track itself
    expect(seen.tracks![0]!.track.play_count).toBeUndefined();
    const page = expectStatus(
      await other.api.playlists.get({ params: { id: playlist.id }, query: { tracks_offset: 1, tracks_limit: 1 } }),
      200,
    );
    expect(page.body.data.playlist.tracks!.map((entry) => entry.track_id)).toEqual([b!.id]);
    expect(page.body.data.playlist.track_count).toBe(3);
  });
});

describe('events', () => {
  it('records playlist.created, updated, track_added, track_removed and deleted in the owner’s audit log; a refused write records nothing', async () => {
    const owner = await createUser(suite.server);
    const [track] = await seedTracks(suite.server, owner.id, 1);
    const playlist = await createPlaylist(owner);
    expectStatus(await owner.api.playlists.update({ params: { id: playlist.id }, body: { title: 'Renamed' } }), 200);
    expectStatus(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: track! } }), 200);
    expect(
      errorOf(await owner.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: track! } })),
    ).toEqual([400, 'TRACK_ALREADY_IN_PLAYLIST']);
    expect(
      errorOf(
        await owner.api.playlists.update({
          params: { id: playlist.id },
          body: { title: 'Stale' },
          headers: { 'if-match': '"1"' },
        }),
      ),
    ).toEqual([412, 'PRECONDITION_FAILED']);
    expectStatus(await owner.api.playlists.removeTrack({ params: { id: playlist.id, trackId: track! } }), 200);
    expectStatus(await owner.api.playlists.remove({ params: { id: playlist.id } }), 200);
    const logs = expectStatus(
      await owner.api.audit.logs({ query: { resource: 'playlist', resource_id: playlist.id, limit: 100 } }),
      200,
    ).body.data.logs;
    expect(logs.map((entry) => entry.action).reverse()).toEqual([
      'playlist.created',
      'playlist.updated',
      'playlist.track_added',
      'playlist.track_removed',
      'playlist.deleted',
    ]);
    expect(logs.find((entry) => entry.action === 'playlist.updated')!.metadata).toMatchObject({ fields: ['title'] });
  });
});

describe('limits', () => {
  it(`refuses a playlist beyond ${PLAYLISTS_PER_USER_MAX} per user (the favorites one included) with 400 LIMIT_REACHED`, async () => {
    const user = await createUser(suite.server);
    expectStatus(await user.api.playlists.favorites({ query: {} }), 200);
    await seedPlaylists(suite.server, user.id, PLAYLISTS_PER_USER_MAX - 2);
    const last = await createPlaylist(user);
    expect(errorOf(await user.api.playlists.create({ body: { title: 'One too many' } }))).toEqual([
      400,
      'LIMIT_REACHED',
    ]);
    expect(errorOf(await user.api.playlists.duplicate({ params: { id: last.id }, body: {} }))).toEqual([
      400,
      'LIMIT_REACHED',
    ]);
    expectStatus(await user.api.playlists.remove({ params: { id: last.id } }), 200);
    await createPlaylist(user);
  });

  it('holds under concurrent creations: with room for two, two of six simultaneous creations succeed', async () => {
    const user = await createUser(suite.server);
    expectStatus(await user.api.playlists.favorites({ query: {} }), 200);
    await seedPlaylists(suite.server, user.id, PLAYLISTS_PER_USER_MAX - 3);
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, index) => user.api.playlists.create({ body: { title: `Race ${index}` } })),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(2);
    expect(replies.filter((reply) => reply.status !== 201).map(errorOf)).toEqual(
      Array.from({ length: 4 }, () => [400, 'LIMIT_REACHED']),
    );
    const page = await user.api.playlists.list({ query: { limit: 1 } });
    expect(page.status === 200 && page.body.data.pagination.total).toBe(PLAYLISTS_PER_USER_MAX);
  });
});

import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createUser, type TestUser } from '../support/factories.js';
import { seedTracks } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { addTracks, createPlaylist, errorOf, readPlaylist, trackIdsOf } from './playlist-helpers.js';

const suite = useTestServer();

async function invite(owner: TestUser, playlistId: string, user: TestUser, permission: 'read' | 'write' | 'admin') {
  return expectStatus(
    await owner.api.playlists.addCollaborator({ params: { id: playlistId }, body: { user_id: user.id, permission } }),
    201,
  ).body.data.collaborator;
}

describe('collaborators', () => {
  it('invites with 201, lists oldest first with public profiles (no email), and shows the playlist on the detail', async () => {
    const owner = await createUser(suite.server);
    const [reader, writer] = [await createUser(suite.server), await createUser(suite.server)];
    const playlist = await createPlaylist(owner);
    const added = await invite(owner, playlist.id, reader, 'read');
    expect(added).toMatchObject({
      playlist_id: playlist.id,
      user_id: reader.id,
      permission: 'read',
      user: { id: reader.id, username: reader.username },
    });
    expect(added.user.email).toBeUndefined();
    await invite(owner, playlist.id, writer, 'write');
    const listed = expectStatus(
      await reader.api.playlists.collaborators({ params: { id: playlist.id }, query: {} }),
      200,
    ).body.data;
    expect(listed.collaborators.map((c) => [c.user_id, c.permission])).toEqual([
      [reader.id, 'read'],
      [writer.id, 'write'],
    ]);
    expect(listed.pagination.total).toBe(2);
    expect((await readPlaylist(reader, playlist.id)).playlist.collaborators!.map((c) => c.user_id)).toEqual([
      reader.id,
      writer.id,
    ]);
    const stranger = await createUser(suite.server);
    expect(errorOf(await stranger.api.playlists.collaborators({ params: { id: playlist.id }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
  });

  it('read sees a private playlist; write also changes tracks; admin also edits details, manages collaborators and shares', async () => {
    const owner = await createUser(suite.server);
    const [reader, writer, admin, extra] = await Promise.all([1, 2, 3, 4].map(() => createUser(suite.server)));
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const playlist = await createPlaylist(owner);
    await invite(owner, playlist.id, reader!, 'read');
    await invite(owner, playlist.id, writer!, 'write');
    await invite(owner, playlist.id, admin!, 'admin');

    expect((await readPlaylist(reader!, playlist.id)).playlist.id).toBe(playlist.id);
    expect(
      errorOf(await reader!.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: a! } })),
    ).toEqual([403, 'FORBIDDEN']);
    expectStatus(await writer!.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: a! } }), 200);
    expectStatus(await admin!.api.playlists.addTrack({ params: { id: playlist.id }, body: { track_id: b! } }), 200);
    expect(errorOf(await writer!.api.playlists.update({ params: { id: playlist.id }, body: { title: 'W' } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(errorOf(await writer!.api.playlists.share({ params: { id: playlist.id }, body: {} }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(
      errorOf(
        await writer!.api.playlists.addCollaborator({
          params: { id: playlist.id },
          body: { user_id: extra!.id, permission: 'read' },
        }),
      ),
    ).toEqual([403, 'FORBIDDEN']);
    expectStatus(
      await admin!.api.playlists.update({ params: { id: playlist.id }, body: { title: 'By the admin' } }),
      200,
    );
    await invite(admin!, playlist.id, extra!, 'read');
    expectStatus(await admin!.api.playlists.share({ params: { id: playlist.id }, body: {} }), 200);
    const promoted = expectStatus(
      await admin!.api.playlists.updateCollaborator({
        params: { id: playlist.id, userId: reader!.id },
        body: { permission: 'write' },
      }),
      200,
    );
    expect(promoted.body.data.collaborator.permission).toBe('write');
    expectStatus(await reader!.api.playlists.removeTrack({ params: { id: playlist.id, trackId: a! } }), 200);
    expect(trackIdsOf((await readPlaylist(owner, playlist.id)).playlist)).toEqual([b]);
    // only the owner deletes or gives away
    expect(errorOf(await admin!.api.playlists.remove({ params: { id: playlist.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await admin!.api.playlists.update({ params: { id: playlist.id }, body: { user_id: admin!.id } })),
    ).toEqual([403, 'FORBIDDEN']);
  });

  it('refuses the owner (400), someone already there (409), an unknown user (404), a user across a block either way (400)', async () => {
    const owner = await createUser(suite.server);
    const [friend, blocker, blocked] = await Promise.all([1, 2, 3].map(() => createUser(suite.server)));
    const playlist = await createPlaylist(owner);
    await invite(owner, playlist.id, friend!, 'read');
    const add = (user_id: string) =>
      owner.api.playlists.addCollaborator({ params: { id: playlist.id }, body: { user_id, permission: 'write' } });
    expect(errorOf(await add(owner.id))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await add(friend!.id))).toEqual([409, 'CONFLICT']);
    expect(errorOf(await add(randomUUID()))).toEqual([404, 'NOT_FOUND']);
    expectStatus(await blocker!.api.users.block({ params: { id: owner.id } }), 200);
    expectStatus(await owner.api.users.block({ params: { id: blocked!.id } }), 200);
    expect(errorOf(await add(blocker!.id))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await add(blocked!.id))).toEqual([400, 'BAD_REQUEST']);
    expect(
      expectStatus(await owner.api.playlists.collaborators({ params: { id: playlist.id }, query: {} }), 200).body.data
        .pagination.total,
    ).toBe(1);
  });

  it('a block ends the collaboration both ways: the blocked writer no longer reads nor adds, the blocker leaves their playlists', async () => {
    const owner = await createUser(suite.server);
    const [writer, bystander] = await Promise.all([1, 2].map(() => createUser(suite.server)));
    const [a, b] = await seedTracks(suite.server, owner.id, 2);
    const mine = await createPlaylist(owner, { is_public: false });
    const theirs = await createPlaylist(writer!, { is_public: false });
    await invite(owner, mine.id, writer!, 'write');
    await invite(owner, mine.id, bystander!, 'read');
    await invite(writer!, theirs.id, owner, 'write');
    expectStatus(await writer!.api.playlists.addTrack({ params: { id: mine.id }, body: { track_id: a! } }), 200);

    expectStatus(await owner.api.users.block({ params: { id: writer!.id } }), 200);
    expect(errorOf(await writer!.api.playlists.get({ params: { id: mine.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await writer!.api.playlists.addTrack({ params: { id: mine.id }, body: { track_id: b! } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const listed = expectStatus(await writer!.api.playlists.list({ query: {} }), 200).body.data.playlists.map(
      (playlist) => playlist.id,
    );
    expect(listed).not.toContain(mine.id);
    // the blocker leaves the blocked user's playlists too
    expect(errorOf(await owner.api.playlists.get({ params: { id: theirs.id } }))).toEqual([404, 'NOT_FOUND']);
    expect((await readPlaylist(owner, mine.id)).playlist.collaborators!.map((c) => c.user_id)).toEqual([bystander!.id]);
    expect(trackIdsOf((await readPlaylist(owner, mine.id)).playlist)).toEqual([a]);
    // while the block lasts, neither can bring the other back
    expect(
      errorOf(
        await owner.api.playlists.addCollaborator({
          params: { id: mine.id },
          body: { user_id: writer!.id, permission: 'write' },
        }),
      ),
    ).toEqual([400, 'BAD_REQUEST']);
    expect(
      errorOf(
        await writer!.api.playlists.addCollaborator({
          params: { id: theirs.id },
          body: { user_id: owner.id, permission: 'read' },
        }),
      ),
    ).toEqual([400, 'BAD_REQUEST']);
  });

  it('a collaborator who blocks the owner leaves the playlist as well', async () => {
    const owner = await createUser(suite.server);
    const collaborator = await createUser(suite.server);
    const playlist = await createPlaylist(owner, { is_public: false });
    await invite(owner, playlist.id, collaborator, 'admin');
    expectStatus(await collaborator.api.users.block({ params: { id: owner.id } }), 200);
    expect(errorOf(await collaborator.api.playlists.get({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(
      expectStatus(await owner.api.playlists.collaborators({ params: { id: playlist.id }, query: {} }), 200).body.data
        .pagination.total,
    ).toBe(0);
  });

  it('removes: an admin removes anyone, a collaborator may leave, others get 403; not a collaborator is 404', async () => {
    const owner = await createUser(suite.server);
    const [admin, a, b] = await Promise.all([1, 2, 3].map(() => createUser(suite.server)));
    const playlist = await createPlaylist(owner);
    await invite(owner, playlist.id, admin!, 'admin');
    await invite(owner, playlist.id, a!, 'write');
    await invite(owner, playlist.id, b!, 'read');
    expect(errorOf(await a!.api.playlists.removeCollaborator({ params: { id: playlist.id, userId: b!.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expectStatus(await b!.api.playlists.removeCollaborator({ params: { id: playlist.id, userId: b!.id } }), 200);
    expect(errorOf(await b!.api.playlists.get({ params: { id: playlist.id } }))).toEqual([404, 'NOT_FOUND']);
    expectStatus(await admin!.api.playlists.removeCollaborator({ params: { id: playlist.id, userId: a!.id } }), 200);
    expect(
      errorOf(await owner.api.playlists.removeCollaborator({ params: { id: playlist.id, userId: a!.id } })),
    ).toEqual([404, 'NOT_FOUND']);
    expect(
      errorOf(
        await owner.api.playlists.updateCollaborator({
          params: { id: playlist.id, userId: a!.id },
          body: { permission: 'admin' },
        }),
      ),
    ).toEqual([404, 'NOT_FOUND']);
  });

  it('gives the playlist to a collaborator: the old owner stays on as admin; a non-collaborator is 400', async () => {
    const owner = await createUser(suite.server);
    const [heir, stranger] = await Promise.all([1, 2].map(() => createUser(suite.server)));
    const playlist = await createPlaylist(owner);
    await invite(owner, playlist.id, heir!, 'read');
    expect(
      errorOf(await owner.api.playlists.update({ params: { id: playlist.id }, body: { user_id: stranger!.id } })),
    ).toEqual([400, 'VALIDATION_FAILED']);
    const given = expectStatus(
      await owner.api.playlists.update({ params: { id: playlist.id }, body: { user_id: heir!.id } }),
      200,
    ).body.data.playlist;
    expect(given.user_id).toBe(heir!.id);
    expect(given.collaborators!.map((c) => [c.user_id, c.permission])).toEqual([[owner.id, 'admin']]);
    // now the heir deletes, the old owner may not
    expect(errorOf(await owner.api.playlists.remove({ params: { id: playlist.id } }))).toEqual([403, 'FORBIDDEN']);
    const mine = expectStatus(await heir!.api.playlists.list({ query: { user_id: 'me' } }), 200).body.data.playlists;
    expect(mine.map((p) => p.id)).toEqual([playlist.id]);
    expectStatus(await heir!.api.playlists.remove({ params: { id: playlist.id } }), 200);
  });

  it('adds tracks to a shared playlist in the name of who added them', async () => {
    const owner = await createUser(suite.server);
    const writer = await createUser(suite.server);
    const [track] = await seedTracks(suite.server, writer.id, 1);
    const playlist = await createPlaylist(owner);
    await invite(owner, playlist.id, writer, 'write');
    await addTracks(writer, playlist.id, [track!]);
    expect((await readPlaylist(owner, playlist.id)).playlist.tracks![0]!.added_by).toBe(writer.id);
  });
});

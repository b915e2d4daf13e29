import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { userActor } from '../../server/src/platform/access/actor.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('tracks of a deleted account', () => {
  it('with keep_public_tracks, public tracks stay attributed to the deleted account and private ones go', async () => {
    const user = await createUser(suite.server);
    const kept = await createTrack(suite.server, user);
    const gone = await createTrack(suite.server, user, { filename: 'p.mp3', isPublic: false });
    expectStatus(
      await user.api.users.deleteAccount({
        body: { confirm_text: 'DELETE', password: user.password, keep_public_tracks: true },
      }),
      200,
    );
    const track = expectStatus(await suite.api.tracks.get({ params: { id: kept.id } }), 200);
    expect(track.body.data.track.creator_id).toBe(user.id);
    expectStatus(await suite.api.tracks.stream({ params: { id: kept.id } }), 200);
    expect(
      (
        await suite.server.riff.database.db
          .selectFrom('tracks')
          .select('deleted_at')
          .where('id', '=', gone.id)
          .executeTakeFirstOrThrow()
      ).deleted_at,
    ).not.toBeNull();
  });

  it('without it, every track goes with the account', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    expectStatus(
      await user.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: user.password } }),
      200,
    );
    expectStatus(await suite.api.tracks.get({ params: { id: track.id } }), 404);
    expect(await suite.server.riff.storage.size(`tracks/${track.id}/original`)).toBeUndefined();
  });

  it('the data export lists the caller’s tracks', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user, { filename: 'mine.mp3', isPublic: false });
    const exported = expectStatus(await user.api.users.exportData(), 200);
    expect(exported.body.tracks.map((t) => t.id)).toEqual([track.id]);
    expect(exported.body.tracks[0]).toHaveProperty('play_count', 0);
  });

  it('through platform.accounts: a rolled-back erasure leaves tracks and files in place; a committed one removes the files once it commits', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    const { platform, storage } = suite.server.riff;
    const row = await platform.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    const owner = userActor(row, 'bearer');
    const key = `tracks/${track.id}/original`;

    const exported = await platform.accounts.export(owner);
    expect(exported.tracks?.map((t) => t.id)).toEqual([track.id]);
    expect(exported.lyrics).toEqual([]);

    await expect(
      platform.scope.transaction(async () => {
        expect(await platform.accounts.erase(owner, { keepPublicTracks: false })).toMatchObject({ removed_tracks: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await storage.size(key)).toBeDefined();
    expect((await suite.http.get(`/tracks/${track.id}`)).status).toBe(200);

    await platform.scope.transaction(async () => {
      await platform.accounts.erase(owner, { keepPublicTracks: false });
      expect(await storage.size(key)).toBeDefined();
    });
    expect(await storage.size(key)).toBeUndefined();
    expect((await suite.http.get(`/tracks/${track.id}`)).status).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

describe('tracks of a deleted account', () => {
  it('with keep_public_tracks, public tracks stay attributed to the deleted account and private ones go', async () => {
    const user = await createUser(suite.server);
    const kept = await createTrack(suite.server, user);
    const gone = await createTrack(suite.server, user, { filename: 'p.mp3', isPublic: false });
    expectStatus(await user.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: user.password, keep_public_tracks: true } }), 200);
    const track = expectStatus(await suite.api.tracks.get({ params: { id: kept.id } }), 200);
    expect(track.body.data.track.creator_id).toBe(user.id);
    expectStatus(await suite.api.tracks.stream({ params: { id: kept.id } }), 200);
    expect((await suite.server.riff.database.db.selectFrom('tracks').select('deleted_at').where('id', '=', gone.id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
  });

  it('without it, every track goes with the account', async () => {
    const user = await createUser(suite.server);
    const track = await createTrack(suite.server, user);
    expectStatus(await user.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: user.password } }), 200);
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
});

import { beforeAll, describe, expect, it } from 'vitest';
import { userActor } from '../../server/src/platform/access/actor.js';
import { signedInUser } from '../support/accounts.js';
import { makeAudio, uploadTrack } from '../support/audio.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer();
let mp3: Buffer;

beforeAll(async () => {
  mp3 = await makeAudio('mp3', { seconds: 1 });
});

describe('tracks of a deleted account', () => {
  it('with keep_public_tracks, public tracks stay attributed to the deleted account and private ones go', async () => {
    const user = await signedInUser(suite.server);
    const kept = await uploadTrack(suite.server.baseUrl, user.accessToken, mp3);
    const gone = await uploadTrack(suite.server.baseUrl, user.accessToken, mp3, 'p.mp3', { is_public: 'false' });
    const reply = await suite.http.delete('/users/me', { token: user.accessToken, body: { confirm_text: 'DELETE', password: user.password, keep_public_tracks: true } });
    expect(reply.status).toBe(200);
    const track = await suite.http.get(`/tracks/${kept.id}`);
    expect(track.status).toBe(200);
    expect(track.body.data.track.creator_id).toBe(user.id);
    expect((await fetch(`${suite.server.baseUrl}/api/v1/tracks/${kept.id}/stream`)).status).toBe(200);
    expect((await suite.server.riff.database.db.selectFrom('tracks').select('deleted_at').where('id', '=', gone.id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
  });

  it('without it, every track goes with the account', async () => {
    const user = await signedInUser(suite.server);
    const track = await uploadTrack(suite.server.baseUrl, user.accessToken, mp3);
    await suite.http.delete('/users/me', { token: user.accessToken, body: { confirm_text: 'DELETE', password: user.password } });
    expect((await suite.http.get(`/tracks/${track.id}`)).status).toBe(404);
    expect(await suite.server.riff.storage.size(`tracks/${track.id}/original`)).toBeUndefined();
  });

  it('the data export lists the caller’s tracks', async () => {
    const user = await signedInUser(suite.server);
    const track = await uploadTrack(suite.server.baseUrl, user.accessToken, mp3, 'mine.mp3', { is_public: 'false' });
    const exported = await suite.http.get('/users/me/export', { token: user.accessToken });
    expect(exported.body.tracks.map((t: { id: string }) => t.id)).toEqual([track.id]);
    expect(exported.body.tracks[0]).toHaveProperty('play_count', 0);
  });

  it('through platform.accounts: a rolled-back erasure leaves tracks and files in place; a committed one removes the files once it commits', async () => {
    const user = await signedInUser(suite.server);
    const track = await uploadTrack(suite.server.baseUrl, user.accessToken, mp3);
    const { platform, storage } = suite.server.riff;
    const row = await platform.database.db.selectFrom('users').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
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

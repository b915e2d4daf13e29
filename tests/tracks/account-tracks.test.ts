import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../support/http.js';
import { signedInUser } from '../support/accounts.js';
import { makeAudio, uploadTrack } from '../support/audio.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

let server: TestServer;
let http: ReturnType<typeof api>;
let mp3: Buffer;

beforeAll(async () => {
  server = await startTestServer();
  http = api(server.baseUrl);
  mp3 = await makeAudio('mp3', { seconds: 1 });
});
afterAll(async () => {
  await server?.close();
});

describe('tracks of a deleted account', () => {
  it('with keep_public_tracks, public tracks stay attributed to the deleted account and private ones go', async () => {
    const user = await signedInUser(server);
    const kept = await uploadTrack(server.baseUrl, user.accessToken, mp3);
    const gone = await uploadTrack(server.baseUrl, user.accessToken, mp3, 'p.mp3', { is_public: 'false' });
    const reply = await http.delete('/users/me', { token: user.accessToken, body: { confirm_text: 'DELETE', password: user.password, keep_public_tracks: true } });
    expect(reply.status).toBe(200);
    const track = await http.get(`/tracks/${kept.id}`);
    expect(track.status).toBe(200);
    expect(track.body.data.track.creator_id).toBe(user.id);
    expect((await fetch(`${server.baseUrl}/api/v1/tracks/${kept.id}/stream`)).status).toBe(200);
    expect((await server.riff.database.db.selectFrom('tracks').select('deleted_at').where('id', '=', gone.id).executeTakeFirstOrThrow()).deleted_at).not.toBeNull();
  });

  it('without it, every track goes with the account', async () => {
    const user = await signedInUser(server);
    const track = await uploadTrack(server.baseUrl, user.accessToken, mp3);
    await http.delete('/users/me', { token: user.accessToken, body: { confirm_text: 'DELETE', password: user.password } });
    expect((await http.get(`/tracks/${track.id}`)).status).toBe(404);
    expect(await server.riff.storage.size(`tracks/${track.id}/original`)).toBeUndefined();
  });

  it('the data export lists the caller’s tracks', async () => {
    const user = await signedInUser(server);
    const track = await uploadTrack(server.baseUrl, user.accessToken, mp3, 'mine.mp3', { is_public: 'false' });
    const exported = await http.get('/users/me/export', { token: user.accessToken });
    expect(exported.body.tracks.map((t: { id: string }) => t.id)).toEqual([track.id]);
    expect(exported.body.tracks[0]).toHaveProperty('play_count', 0);
  });
});

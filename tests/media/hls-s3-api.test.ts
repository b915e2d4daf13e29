/**
 * HLS through the API on S3 storage (ADDENDUM: segments answer 302 to a presigned URL; the
 * playlists are served by the API): a player follows the redirects and gets every segment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, register, verify } from '../support/accounts.js';
import { makeAudio, uploadTrack } from '../support/audio.js';
import { runDueJobs } from '../support/jobs.js';
import { parsePlaylist } from '../support/media.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

let s3: TestS3;
let server: TestServer;

beforeAll(async () => {
  s3 = await startTestS3();
  server = await startTestServer({ ...s3.env, WORKERS: '0' });
});
afterAll(async () => {
  await server?.close();
  await s3?.close();
});

describe('HLS on S3 storage', () => {
  it('playlists come from the API, every init and media segment is a 302 to a presigned URL that serves it', async () => {
    const user = await register(server);
    await runDueJobs(server);
    await verify(server, user.email);
    const { accessToken } = await login(server, user);
    const track = await uploadTrack(server.baseUrl, accessToken, await makeAudio('mp3', { seconds: 8 }), 'cloud.mp3');
    await runDueJobs(server);
    expect(
      expectStatus(await typedApi(server, { token: accessToken }).tracks.status({ params: { id: track.id } }), 200).body
        .data.progress,
    ).toBe(100);

    const masterUrl = `${server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    const master = await fetch(masterUrl);
    expect(master.status).toBe(200);
    expect(master.headers.get('content-type')).toContain('application/vnd.apple.mpegurl');
    let segments = 0;
    for (const variant of parsePlaylist(await master.text()).playlists ?? []) {
      const variantUrl = new URL(variant.uri, masterUrl).toString();
      const playlist = parsePlaylist(await (await fetch(variantUrl)).text());
      const uris = [playlist.segments[0]!.map!.uri, ...playlist.segments.map((segment) => segment.uri)];
      for (const uri of uris) {
        const redirect = await fetch(new URL(uri, variantUrl), { redirect: 'manual' });
        expect(redirect.status).toBe(302);
        const location = redirect.headers.get('location')!;
        expect(location).toContain(s3.endpoint);
        const object = await fetch(location);
        expect(object.status).toBe(200);
        expect((await object.arrayBuffer()).byteLength).toBeGreaterThan(0);
        segments++;
      }
    }
    expect(segments).toBeGreaterThanOrEqual(4);
    const waveform = expectStatus(await typedApi(server).media.waveform({ params: { id: track.id } }), 200).body;
    expect(waveform.version).toBe(2);
  });
});

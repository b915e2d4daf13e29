/**
 * The media pipeline through the HTTP API (ADDENDUM "Media pipeline"): an upload queues HLS and
 * the waveform with it; status, waveform and HLS as a player reads them, public and private.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { login, register, verify } from '../support/accounts.js';
import { createTrack } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { parsePlaylist } from '../support/media.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus, typedApi } from '../support/typed-api.js';

// no workers: the jobs run when the test says (runDueJobs)
const suite = useTestServer({ WORKERS: '0' });

/** createUser for a server without workers: the verification mail is sent by running the due jobs. */
async function createUser(server: typeof suite.server) {
  const user = await register(server);
  await runDueJobs(server);
  await verify(server, user.email);
  const { accessToken } = await login(server, user);
  return { ...user, token: accessToken, api: typedApi(server, { token: accessToken }) };
}

/** Reads the master, both variant playlists and every init and media segment as an HLS player would; returns what it fetched. */
async function playAll(masterUrl: string, headers: Record<string, string> = {}) {
  const fetched: { url: string; status: number; cacheControl: string | null; bytes: number }[] = [];
  const get = async (url: string) => {
    const reply = await fetch(url, { headers });
    const bytes = Buffer.from(await reply.arrayBuffer());
    fetched.push({ url, status: reply.status, cacheControl: reply.headers.get('cache-control'), bytes: bytes.length });
    expect(reply.status, `${url}: ${bytes.toString('utf8').slice(0, 300)}`).toBe(200);
    return bytes;
  };
  const master = parsePlaylist((await get(masterUrl)).toString('utf8'));
  const variants = master.playlists ?? [];
  expect(variants.map((variant) => variant.attributes.CODECS)).toEqual(['mp4a.40.2', 'mp4a.40.2']);
  let segments = 0;
  for (const variant of variants) {
    const variantUrl = new URL(variant.uri, masterUrl).toString();
    const playlist = parsePlaylist((await get(variantUrl)).toString('utf8'));
    const init = playlist.segments[0]?.map?.uri;
    expect(init).toBeDefined();
    await get(new URL(init!, variantUrl).toString());
    expect(playlist.segments.length).toBeGreaterThan(0);
    for (const segment of playlist.segments) {
      expect((await get(new URL(segment.uri, variantUrl).toString())).length).toBeGreaterThan(0);
      segments++;
    }
  }
  return { fetched, segments, variants };
}

describe('the media pipeline through the API', () => {
  it('an upload queues HLS and the waveform; status reaches 100 exactly when both are ready; the track names its media', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 8 });
    expect(track.stream_status).toBe('pending');
    expect(track.stream_manifest_url).toBeNull();
    expect(track.waveform_url).toBeNull();

    const before = expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data;
    expect(before).toMatchObject({
      status: 'completed',
      stream_status: 'pending',
      waveform_ready: false,
      status_message: null,
    });
    expect(before.progress).toBeLessThan(100);
    const pending = expectStatus(await owner.api.media.waveform({ params: { id: track.id } }), 404);
    expect(pending.body.error.code).toBe('MEDIA_NOT_READY');
    expect(pending.headers.get('retry-after')).toBe('5');

    await runDueJobs(suite.server);

    const after = expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data;
    expect(after).toEqual({
      progress: 100,
      status: 'completed',
      stream_status: 'ready',
      status_message: null,
      waveform_ready: true,
    });
    const ready = expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track;
    expect(ready.stream_manifest_url).toMatch(new RegExp(`^https?://.+/api/v1/tracks/${track.id}/hls/master\\.m3u8$`));
    expect(ready.waveform_url).toMatch(new RegExp(`^https?://.+/api/v1/tracks/${track.id}/waveform$`));
    expect(ready.waveform_path).toBe(`/api/v1/tracks/${track.id}/waveform`);

    // the waveform: anyone who may see the track, not enveloped
    const waveform = expectStatus(await suite.api.media.waveform({ params: { id: track.id } }), 200).body;
    expect(waveform).toMatchObject({ version: 2, channels: 1, bits: 8 });
    expect(waveform.length).toBeGreaterThan(0);
    expect(waveform.length).toBeLessThanOrEqual(1800);
    expect(waveform.data).toHaveLength(waveform.length * 2);

    // a file without a picture has no cover
    expect(expectStatus(await suite.api.media.cover({ params: { id: track.id } }), 404).body.error.code).toBe(
      'NOT_FOUND',
    );
  });

  it('the status is the owner’s: another user gets 404 even on a public track', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const track = await createTrack(suite.server, owner);
    expectStatus(await other.api.tracks.status({ params: { id: track.id } }), 404);
  });

  it('a public track plays with no credential: every playlist and segment, cache headers as ADDENDUM says', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 14 });
    await runDueJobs(suite.server);
    const master = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    const { fetched, segments, variants } = await playAll(master);
    expect(variants.map((variant) => variant.attributes.BANDWIDTH)).toHaveLength(2);
    expect(segments).toBeGreaterThanOrEqual(4); // 14 s in 6 s segments, two variants
    const isPlaylist = (url: string) => new URL(url).pathname.endsWith('.m3u8');
    const playlists = fetched.filter((item) => isPlaylist(item.url));
    const media = fetched.filter((item) => !isPlaylist(item.url));
    expect(new Set(playlists.map((item) => item.cacheControl))).toEqual(new Set(['public, max-age=60']));
    expect(new Set(media.map((item) => item.cacheControl))).toEqual(new Set(['public, max-age=31536000, immutable']));
  });

  it('a private track plays with the owner’s stream token, every URI the server writes carrying a playback token; nobody else gets it', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 8, isPublic: false });
    await runDueJobs(suite.server);
    const master = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;

    expect((await fetch(master)).status).toBe(404);
    expectStatus(await other.api.media.hlsMaster({ params: { id: track.id } }), 404);
    expectStatus(await other.api.media.waveform({ params: { id: track.id } }), 404);
    const otherToken = expectStatus(await other.api.auth.streamToken(), 200).body.token;
    expect((await fetch(`${master}?token=${otherToken}`)).status).toBe(404);

    const token = expectStatus(await owner.api.auth.streamToken(), 200).body.token;
    const { fetched } = await playAll(`${master}?token=${encodeURIComponent(token)}`);
    const playback = new Set(fetched.slice(1).map((item) => new URL(item.url).searchParams.get('playback')));
    expect(playback.size).toBe(1);
    expect([...playback][0]).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    for (const item of fetched) expect(item.cacheControl).toMatch(/^private/);
    // the owner's bearer works too
    expectStatus(await owner.api.media.hlsMaster({ params: { id: track.id } }), 200);
    // the stream token as a bearer on the master: its child URIs carry a playback token, so they play with no header
    const viaHeader = await fetch(master, { headers: { authorization: `Bearer ${token}` } });
    expect(viaHeader.status).toBe(200);
    const variants = parsePlaylist(await viaHeader.text()).playlists ?? [];
    expect(variants).toHaveLength(2);
    for (const variant of variants) {
      const url = new URL(variant.uri, master);
      expect(url.searchParams.get('playback')).toEqual(expect.any(String));
      expect((await fetch(url)).status).toBe(200);
    }
  });

  it('deleting a track removes every derived file', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3 });
    await runDueJobs(suite.server);
    const folder = suite.server.riff.storage.localPath(`media/${track.id}`)!;
    expect((await readdir(folder, { recursive: true })).length).toBeGreaterThan(0);
    expectStatus(await owner.api.tracks.remove({ params: { id: track.id } }), 200);
    await runDueJobs(suite.server);
    expectStatus(await suite.api.media.hlsMaster({ params: { id: track.id } }), 404);
    expect(await readdir(folder, { recursive: true }).catch(() => [])).toEqual([]);
  });
});

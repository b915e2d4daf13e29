/**
 * Versions of a track's audio through the API (ADDENDUM "Versions"): replace, list, restore, at
 * most 10 kept with their files, counted against the quota, every file gone with the track.
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeAudio } from '../support/audio.js';
import { createTrack, createUser } from '../support/factories.js';
import { runDueJobs, runJob } from '../support/jobs.js';
import { parsePlaylist, probeDuration } from '../support/media.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

// no workers: the jobs run when the test says (runDueJobs)
const suite = useTestServer({ WORKERS: '0' });

const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

async function get(url: string) {
  const reply = await fetch(url);
  const body = Buffer.from(await reply.arrayBuffer());
  const code =
    reply.status >= 400 ? (JSON.parse(body.toString('utf8')) as { error: { code: string } }).error.code : undefined;
  return { status: reply.status, code, retryAfter: reply.headers.get('retry-after'), body };
}

/** The 160k variant as a player reads it from the master: its URI, its init and segment URIs, and the audio they join into. */
async function playVariant(masterUrl: string) {
  const master = await get(masterUrl);
  expect(master.status).toBe(200);
  const variant = new URL(parsePlaylist(master.body.toString('utf8')).playlists![0]!.uri, masterUrl).toString();
  const playlist = parsePlaylist((await get(variant)).body.toString('utf8'));
  const uris = [playlist.segments[0]!.map!.uri, ...playlist.segments.map((segment) => segment.uri)].map((uri) =>
    new URL(uri, variant).toString(),
  );
  const parts: Buffer[] = [];
  for (const uri of uris) {
    const reply = await get(uri);
    expect(reply.status, uri).toBe(200);
    parts.push(reply.body);
  }
  return { variant, uris, audio: Buffer.concat(parts) };
}

/** Seconds of audio ffprobe decodes from fMP4 bytes. */
async function decodedSeconds(bytes: Buffer) {
  const folder = await mkdtemp(path.join(tmpdir(), 'riff-versions-'));
  try {
    await writeFile(path.join(folder, 'joined.mp4'), bytes);
    return await probeDuration(path.join(folder, 'joined.mp4'));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('versions of a track’s audio', () => {
  it('PUT /file replaces the audio, keeps the title, runs the pipeline again; the list shows both; restore brings the first back', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { title: 'First mix', seconds: 1 });
    await runDueJobs(suite.server);
    const mp3Size = track.file_size;

    const wav = await makeAudio('wav', { seconds: 2 });
    const replaced = expectStatus(
      await owner.api.tracks.replaceFile({ params: { id: track.id }, body: { file: fileOf(wav, 'second.wav') } }),
      200,
    ).body.data.track;
    expect(replaced).toMatchObject({
      id: track.id,
      title: 'First mix',
      format: 'wav',
      file_size: wav.length,
      duration: 2,
    });
    // the pipeline was queued again with the new audio
    expect(
      expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data.progress,
    ).toBeLessThan(100);
    await runDueJobs(suite.server);
    expect(expectStatus(await owner.api.tracks.status({ params: { id: track.id } }), 200).body.data.progress).toBe(100);

    const { versions } = expectStatus(await owner.api.media.versions({ params: { id: track.id } }), 200).body.data;
    expect(versions.map((version) => [version.version_number, version.format, version.is_current])).toEqual([
      [2, 'wav', true],
      [1, 'mp3', false],
    ]);
    // the older version counts against the quota
    const quota = expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota;
    expect(quota.used_bytes).toBe(mp3Size + wav.length);

    const first = versions[1]!;
    const restored = expectStatus(
      await owner.api.tracks.restoreVersion({ params: { id: track.id, versionId: first.id } }),
      200,
    ).body.data.track;
    expect(restored).toMatchObject({ format: 'mp3', file_size: mp3Size, title: 'First mix' });
    const after = expectStatus(await owner.api.media.versions({ params: { id: track.id } }), 200).body.data.versions;
    expect(after.find((version) => version.is_current)?.id).toBe(first.id);
    // the audio streams as the restored file
    const streamed = await fetch(`${suite.server.baseUrl}/api/v1/tracks/${track.id}/stream`);
    expect(Number(streamed.headers.get('content-length'))).toBe(mp3Size);
    await streamed.arrayBuffer();
    expect(
      expectStatus(await owner.api.tracks.restoreVersion({ params: { id: track.id, versionId: first.id } }), 409).body
        .error.code,
    ).toBe('CONFLICT');
    await runDueJobs(suite.server);
  });

  it('PUT /file: the reply says pending; the HLS answers as before a first run until the new audio’s exists, never the old one’s; then it plays the new audio', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 3 });
    await runDueJobs(suite.server);
    const masterUrl = `${suite.server.baseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`;
    const old = await playVariant(masterUrl);
    expect(await decodedSeconds(old.audio)).toBeCloseTo(3, 0);
    const oldRun = new URL(old.variant).searchParams.get('v');

    // what a track answers before its first run
    const fresh = await createTrack(suite.server, owner, { seconds: 1 });
    const unprocessed = await get(`${suite.server.baseUrl}/api/v1/tracks/${fresh.id}/hls/master.m3u8`);
    expect([unprocessed.status, unprocessed.code, unprocessed.retryAfter]).toEqual([404, 'MEDIA_NOT_READY', '5']);
    const notYet = [unprocessed.status, unprocessed.code, unprocessed.retryAfter];

    const wav = await makeAudio('wav', { seconds: 9 });
    const replaced = expectStatus(
      await owner.api.tracks.replaceFile({ params: { id: track.id }, body: { file: fileOf(wav, 'longer.wav') } }),
      200,
    ).body.data.track;
    expect(replaced).toMatchObject({ duration: 9, stream_status: 'pending', stream_manifest_url: null });
    expect(
      expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track.stream_status,
    ).toBe('pending');
    for (const url of [masterUrl, old.variant, ...old.uris]) {
      const reply = await get(url);
      expect([reply.status, reply.code, reply.retryAfter], url).toEqual(notYet);
    }
    // the old audio's HLS files are gone
    const storage = suite.server.riff.storage;
    const segments = async () =>
      (
        (await readdir(storage.localPath(`media/${track.id}`)!, { recursive: true }).catch(() => [])) as string[]
      ).filter((file) => file.endsWith('.m4s'));
    expect(await segments()).toEqual([]);

    // a job of the old audio's run that comes late changes nothing
    expect(oldRun).toEqual(expect.any(String));
    expect(await runJob(suite.server, 'media.hls', { trackId: track.id, runId: oldRun! })).toBe('stale');
    expect(
      expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track.stream_status,
    ).toBe('pending');
    expect((await get(masterUrl)).status).toBe(404);

    await runDueJobs(suite.server);
    const ready = expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track;
    expect(ready.stream_status).toBe('ready');
    expect(ready.stream_manifest_url).toMatch(new RegExp(`/api/v1/tracks/${track.id}/hls/master\\.m3u8$`));
    const current = await playVariant(masterUrl);
    expect(Math.abs((await decodedSeconds(current.audio)) - 9)).toBeLessThan(0.5);
    expect(new URL(current.variant).searchParams.get('v')).not.toBe(oldRun);
    // a URI written for the old audio never reaches the new one's files
    for (const url of [old.variant, ...old.uris])
      expect(await get(url).then((reply) => [reply.status, reply.code]), url).toEqual([404, 'NOT_FOUND']);
    await runDueJobs(suite.server);
  });

  it('another user: 403 on a public track they may see, 404 on a private one; nothing changes', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const shown = await createTrack(suite.server, owner);
    const hidden = await createTrack(suite.server, owner, { isPublic: false });
    const mp3 = await makeAudio('mp3', { seconds: 1 });
    expectStatus(await other.api.media.versions({ params: { id: shown.id } }), 403);
    expectStatus(await other.api.media.versions({ params: { id: hidden.id } }), 404);
    expectStatus(
      await other.api.tracks.replaceFile({ params: { id: shown.id }, body: { file: fileOf(mp3, 'x.mp3') } }),
      403,
    );
    expectStatus(
      await other.api.tracks.replaceFile({ params: { id: hidden.id }, body: { file: fileOf(mp3, 'x.mp3') } }),
      404,
    );
    const versions = expectStatus(await owner.api.media.versions({ params: { id: shown.id } }), 200).body.data.versions;
    expect(versions).toHaveLength(1);
    expectStatus(await other.api.tracks.restoreVersion({ params: { id: shown.id, versionId: versions[0]!.id } }), 403);
    await runDueJobs(suite.server);
  });

  it('keeps at most 10 versions: the oldest goes with its file; deleting the track removes every version and derived file', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 1 });
    const storage = suite.server.riff.storage;
    const originalKey = `tracks/${track.id}/original`;
    expect(await storage.size(originalKey)).toBeGreaterThan(0);
    for (let n = 2; n <= 11; n++) {
      const bytes = await makeAudio('mp3', { seconds: 1, title: `take ${n}` });
      expectStatus(
        await owner.api.tracks.replaceFile({ params: { id: track.id }, body: { file: fileOf(bytes, `take${n}.mp3`) } }),
        200,
      );
    }
    const versions = expectStatus(await owner.api.media.versions({ params: { id: track.id } }), 200).body.data.versions;
    expect(versions.map((version) => version.version_number)).toEqual([11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    expect(await storage.size(originalKey)).toBeUndefined();
    await runDueJobs(suite.server);

    const folder = storage.localPath(`tracks/${track.id}`)!;
    expect(
      (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()),
    ).toHaveLength(10);
    expectStatus(await owner.api.tracks.remove({ params: { id: track.id } }), 200);
    await runDueJobs(suite.server);
    const left = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile())).toEqual([]);
    const media = await readdir(storage.localPath(`media/${track.id}`)!, {
      recursive: true,
      withFileTypes: true,
    }).catch(() => []);
    expect(media.filter((entry) => entry.isFile())).toEqual([]);
    expect(expectStatus(await owner.api.tracks.quota({ params: { id: 'me' } }), 200).body.data.quota.used_bytes).toBe(
      0,
    );
  });

  it('deleting the account removes every version, HLS file, waveform and cover of its tracks', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 2 });
    const wav = await makeAudio('wav', { seconds: 1 });
    expectStatus(
      await owner.api.tracks.replaceFile({ params: { id: track.id }, body: { file: fileOf(wav, 'second.wav') } }),
      200,
    );
    await runDueJobs(suite.server);
    const storage = suite.server.riff.storage;
    const files = async (prefix: string) =>
      (await readdir(storage.localPath(prefix)!, { recursive: true, withFileTypes: true }).catch(() => [])).filter(
        (entry) => entry.isFile(),
      );
    expect(await files(`tracks/${track.id}`)).toHaveLength(2);
    expect((await files(`media/${track.id}`)).length).toBeGreaterThan(0);
    expectStatus(
      await owner.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: owner.password } }),
      200,
    );
    await runDueJobs(suite.server);
    expect(await files(`tracks/${track.id}`)).toEqual([]);
    expect(await files(`media/${track.id}`)).toEqual([]);
  });

  it('a replacement that is not audio is 400 INVALID_AUDIO and leaves the track, its versions and its files as they were', async () => {
    const owner = await createUser(suite.server);
    const track = await createTrack(suite.server, owner, { seconds: 1 });
    const refused = expectStatus(
      await owner.api.tracks.replaceFile({
        params: { id: track.id },
        body: { file: fileOf(Buffer.from('just some text, no audio'), 'fake.mp3') },
      }),
      400,
    );
    expect(refused.body.error.code).toBe('INVALID_AUDIO');
    const shown = expectStatus(await owner.api.tracks.get({ params: { id: track.id } }), 200).body.data.track;
    expect(shown).toMatchObject({ format: track.format, file_size: track.file_size });
    expect(
      expectStatus(await owner.api.media.versions({ params: { id: track.id } }), 200).body.data.versions,
    ).toHaveLength(1);
    const folder = suite.server.riff.storage.localPath(`tracks/${track.id}`)!;
    expect(
      (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()),
    ).toHaveLength(1);
    await runDueJobs(suite.server);
  });
});

import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { anonymousActor } from '../../server/src/platform/access/actor.js';
import { AppError } from '../../server/src/platform/errors/app-error.js';
import { makeAudio, mp3WithCover } from '../support/audio.js';
import { parsePlaylist, readObject } from '../support/media.js';
import { refusal } from '../support/refusal.js';
import { serviceReplaceAudio, serviceTrack, serviceUser } from '../support/service-factories.js';
import { useServices, type ServiceSuite } from '../support/services.js';

// The rules of the media pipeline, called on the services with an Actor on a real database and real
// audio: who follows a track's processing and manages its versions, what a run's jobs do to the
// stream a listener sees, and who reads the waveform and cover. media-api.test.ts and
// versions-api.test.ts hold the routes (HLS as a player fetches it, cache headers, the forms).
// Jobs run only when a test asks (platform.jobs.runDue); serviceUser runs them too (the
// verification mail), so each test makes its users before its tracks.
const suite = useServices();
// ffmpeg nowhere: the jobs' failure as the owner sees it (uploads read their audio without ffmpeg)
const noFfmpeg = useServices({ FFMPEG_PATH: path.join(tmpdir(), 'no-such-ffmpeg') });

const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const conflict = { status: 409, code: 'CONFLICT' };

/** What a media read not yet possible answers: status, code and when to ask again. */
async function notReady(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return [error.status, error.code, error.headers?.['Retry-After']];
}
const NOT_READY = [404, 'MEDIA_NOT_READY', '5'];

/** The files stored under a prefix (the services' storage is on local disk in both passes). */
async function filesUnder(services: ServiceSuite, prefix: string): Promise<string[]> {
  const folder = services.platform.storage.localPath(prefix)!;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('media pipeline (service)', () => {
  it('processing is the owner’s and admins’ to follow; anyone else gets 404, even on a public track', async () => {
    const { media } = suite.areas.media;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner);
    const pending = { status: 'completed', stream_status: 'pending', status_message: null, waveform_ready: false };
    expect(await media.status(owner, track.id)).toMatchObject({ progress: 0, ...pending });
    expect(await media.status(admin, track.id)).toMatchObject({ progress: 0, ...pending });
    expect(await refusal(media.status(other, track.id))).toMatchObject(notFound);
    expect(await refusal(media.status(anonymousActor(), track.id))).toMatchObject(notFound);
    await suite.platform.jobs.runDue();
    expect(await media.status(owner, track.id)).toEqual({
      progress: 100,
      status: 'completed',
      stream_status: 'ready',
      status_message: null,
      waveform_ready: true,
    });
    expect(await refusal(media.status(other, track.id))).toMatchObject(notFound);
  });

  it('progress reaches 100 only when both jobs are done: the stream alone is 90', async () => {
    const { media } = suite.areas.media;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { seconds: 4 });
    // a run of its own, so the test runs its two jobs one after the other
    const runId = await media.queuePipeline(owner, track.id);
    expect(await media.runHls({ trackId: track.id, runId })).toBe('ready');
    expect(await media.status(owner, track.id)).toMatchObject({
      progress: 90,
      stream_status: 'ready',
      waveform_ready: false,
    });
    // the stream plays while the waveform is still to come
    const { key } = await suite.areas.media.hls.open(anonymousActor(), track.id, 'master.m3u8');
    const master = parsePlaylist((await readObject(suite.platform.storage, key)).toString('utf8'));
    expect(master.playlists?.map((variant) => variant.attributes.CODECS)).toEqual(['mp4a.40.2', 'mp4a.40.2']);
    expect(await notReady(media.waveform(owner, track.id))).toEqual(NOT_READY);

    expect(await media.runWaveform({ trackId: track.id, runId })).toBe('ready');
    expect(await media.status(owner, track.id)).toMatchObject({ progress: 100, waveform_ready: true });
    const waveform = await media.waveform(anonymousActor(), track.id);
    expect(waveform).toMatchObject({ version: 2, channels: 1, bits: 8 });
    expect(waveform.data).toHaveLength(waveform.length * 2);
    // the upload's own run was replaced by this one: its jobs change nothing
    await suite.platform.jobs.runDue();
    expect((await suite.areas.media.hls.open(owner, track.id, 'master.m3u8')).generation).toBe(runId);
  });

  it('new audio takes the stream back to pending at once; a late job of the old run is stale and the old HLS is never served again', async () => {
    const { media, hls } = suite.areas.media;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner, { seconds: 3 });
    await suite.platform.jobs.runDue();
    const ready = (await tracks.get(anonymousActor(), track.id)).track;
    expect(ready).toMatchObject({ stream_status: 'ready', waveform_path: `/api/v1/tracks/${track.id}/waveform` });
    expect(ready.stream_manifest_url).toMatch(new RegExp(`^https?://.+/api/v1/tracks/${track.id}/hls/master\\.m3u8$`));
    const oldRun = (await hls.open(anonymousActor(), track.id, 'master.m3u8')).generation;

    const replaced = await serviceReplaceAudio(suite, owner, track, { seconds: 2 });
    expect(replaced).toMatchObject({ stream_status: 'pending', stream_manifest_url: null, duration: 2 });
    expect(await notReady(hls.open(anonymousActor(), track.id, 'master.m3u8'))).toEqual(NOT_READY);
    expect(await notReady(media.waveform(owner, track.id))).toEqual(NOT_READY);
    expect(await filesUnder(suite, `media/${track.id}/${oldRun}/hls`)).toEqual([]);

    expect(await media.runHls({ trackId: track.id, runId: oldRun })).toBe('stale');
    expect(await media.runWaveform({ trackId: track.id, runId: oldRun })).toBe('stale');
    expect((await tracks.get(owner, track.id)).track.stream_status).toBe('pending');

    await suite.platform.jobs.runDue();
    const current = await hls.open(anonymousActor(), track.id, 'master.m3u8');
    expect(current.generation).not.toBe(oldRun);
    expect((await tracks.get(owner, track.id)).track.stream_status).toBe('ready');
    // a URI written for the old audio's run never reaches the new audio's files
    expect(await refusal(hls.open(anonymousActor(), track.id, 'master.m3u8', { generation: oldRun }))).toMatchObject(
      notFound,
    );
  });

  it('versions are the owner’s and admins’ to list: another user gets 403 on a public track, 404 on a private one', async () => {
    const { media } = suite.areas.media;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const shown = await serviceTrack(suite, owner);
    const hidden = await serviceTrack(suite, owner, { isPublic: false });
    const listed = (await media.versions(owner, shown.id)).versions;
    expect(listed.map((version) => [version.version_number, version.format, version.is_current])).toEqual([
      [1, 'mp3', true],
    ]);
    expect((await media.versions(admin, hidden.id)).versions).toHaveLength(1);
    expect(await refusal(media.versions(other, shown.id))).toMatchObject(forbidden);
    expect(await refusal(media.versions(other, hidden.id))).toMatchObject(notFound);
    await suite.platform.jobs.runDue();
  });

  it('new audio keeps the old as a version; restoring one makes it the track’s audio again and re-runs the pipeline; the current one cannot be restored', async () => {
    const { media } = suite.areas.media;
    const { files, tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner, { title: 'First mix' });
    const elsewhere = await serviceTrack(suite, owner);
    const wav = await makeAudio('wav', { seconds: 1 });
    await serviceReplaceAudio(suite, owner, track, { bytes: wav, filename: 'second.wav' });
    await suite.platform.jobs.runDue();
    const { versions } = await media.versions(owner, track.id);
    expect(versions.map((version) => [version.version_number, version.format, version.is_current])).toEqual([
      [2, 'wav', true],
      [1, 'mp3', false],
    ]);
    const [second, first] = versions as [(typeof versions)[0], (typeof versions)[0]];

    expect(await refusal(files.restore(other, track.id, first.id))).toMatchObject(forbidden);
    expect(await refusal(files.restore(owner, track.id, second.id))).toMatchObject(conflict);
    // a version is restored on its own track only
    const foreign = (await media.versions(owner, elsewhere.id)).versions[0]!;
    expect(await refusal(files.restore(owner, track.id, foreign.id))).toMatchObject(notFound);

    const restored = (await files.restore(owner, track.id, first.id)).track;
    expect(restored).toMatchObject({
      title: 'First mix',
      format: 'mp3',
      file_size: track.file_size,
      stream_status: 'pending',
    });
    expect((await media.status(owner, track.id)).progress).toBeLessThan(100);
    expect((await media.versions(owner, track.id)).versions.find((version) => version.is_current)?.id).toBe(first.id);
    // an admin may restore too
    expect((await files.restore(admin, track.id, second.id)).track.format).toBe('wav');
    await suite.platform.jobs.runDue();
    expect((await tracks.get(owner, track.id)).track).toMatchObject({ format: 'wav', stream_status: 'ready' });
  });

  it('a private track’s waveform and cover are for its owner, admins and a secret link’s holder; anyone else gets 404', async () => {
    const { media } = suite.areas.media;
    const { social } = suite.areas.social.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner, { isPublic: false });
    await serviceReplaceAudio(suite, owner, track, { bytes: await mp3WithCover(2), filename: 'covered.mp3' });
    await suite.platform.jobs.runDue();
    const secret = new URL((await social.share(owner, track.id, { platform: 'link' })).share_url).searchParams.get(
      'secret',
    )!;
    for (const viewer of [owner, admin]) {
      expect((await media.waveform(viewer, track.id)).version).toBe(2);
      expect((await media.cover(viewer, track.id)).contentType).toBe('image/jpeg');
    }
    expect((await media.waveform(other, track.id, secret)).version).toBe(2);
    expect((await media.cover(anonymousActor(), track.id, secret)).size).toBeGreaterThan(0);
    for (const viewer of [other, anonymousActor()]) {
      expect(await refusal(media.waveform(viewer, track.id))).toMatchObject(notFound);
      expect(await refusal(media.cover(viewer, track.id))).toMatchObject(notFound);
      expect(await refusal(media.waveform(viewer, track.id, `${secret}x`))).toMatchObject(notFound);
    }
  });

  it('a picture embedded in the audio becomes the track’s cover; new audio without one leaves the track with none', async () => {
    const { media } = suite.areas.media;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    await suite.platform.jobs.runDue();
    expect(await refusal(media.cover(owner, track.id))).toMatchObject(notFound);
    expect((await tracks.get(owner, track.id)).track.cover_art_path).toBeNull();

    await serviceReplaceAudio(suite, owner, track, { bytes: await mp3WithCover(2), filename: 'covered.mp3' });
    await suite.platform.jobs.runDue();
    expect((await tracks.get(owner, track.id)).track.cover_art_path).toBe(`/api/v1/tracks/${track.id}/cover`);
    const cover = await media.cover(owner, track.id);
    expect(cover.contentType).toBe('image/jpeg');
    expect((await buffer(cover.body)).length).toBe(cover.size);

    await serviceReplaceAudio(suite, owner, track, { seconds: 1 });
    await suite.platform.jobs.runDue();
    expect(await refusal(media.cover(owner, track.id))).toMatchObject(notFound);
    expect((await tracks.get(owner, track.id)).track.cover_art_path).toBeNull();
    // the old cover's file went with it
    expect((await filesUnder(suite, `media/${track.id}`)).filter((file) => file.endsWith('/cover'))).toEqual([]);
  });

  it('a cover fitted for players (coverImage) is made once, kept beside the cover, and goes when new audio replaces it', async () => {
    const { media } = suite.areas.media;
    const owner = await serviceUser(suite);
    const track = await serviceTrack(suite, owner);
    await serviceReplaceAudio(suite, owner, track, { bytes: await mp3WithCover(2), filename: 'covered.mp3' });
    await suite.platform.jobs.runDue();
    const copies = async () =>
      (await filesUnder(suite, `media/${track.id}`)).filter((file) => file.includes('/cover-sizes/'));

    const first = await media.coverImage(owner, track.id, 32);
    expect(await copies()).toEqual([expect.stringMatching(/\/cover-sizes\/32$/)]);
    const again = await media.coverImage(owner, track.id, 32);
    expect(again.etag).toBe(first.etag);
    expect((await media.coverImage(owner, track.id)).etag).not.toBe(first.etag);
    const { body, size } = await again.read();
    expect((await buffer(body)).length).toBe(size);
    expect(await copies()).toHaveLength(1);

    await serviceReplaceAudio(suite, owner, track, { bytes: await mp3WithCover(3), filename: 'covered-again.mp3' });
    await suite.platform.jobs.runDue();
    expect(await copies()).toEqual([]);
    expect((await media.coverImage(owner, track.id, 32)).etag).not.toBe(first.etag);
  });

  it('a deleted track’s media is gone for everyone, its owner included, with every derived file and older version', async () => {
    const { media } = suite.areas.media;
    const { tracks } = suite.areas.tracks.services;
    const owner = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const track = await serviceTrack(suite, owner);
    await serviceReplaceAudio(suite, owner, track, { seconds: 1 });
    await suite.platform.jobs.runDue();
    expect(await filesUnder(suite, `tracks/${track.id}`)).toHaveLength(2);
    expect((await filesUnder(suite, `media/${track.id}`)).length).toBeGreaterThan(0);
    await tracks.remove(owner, track.id);
    await suite.platform.jobs.runDue();
    for (const viewer of [owner, admin]) {
      expect(await refusal(media.status(viewer, track.id))).toMatchObject(notFound);
      expect(await refusal(media.versions(viewer, track.id))).toMatchObject(notFound);
      expect(await refusal(media.waveform(viewer, track.id))).toMatchObject(notFound);
      expect(await refusal(suite.areas.media.hls.open(viewer, track.id, 'master.m3u8'))).toMatchObject(notFound);
    }
    expect(await filesUnder(suite, `tracks/${track.id}`)).toEqual([]);
    expect(await filesUnder(suite, `media/${track.id}`)).toEqual([]);
  });
});

describe('media pipeline without ffmpeg (service)', () => {
  it('both jobs fail for good: the stream is in error with a message the owner understands, progress never 100', async () => {
    const { media } = noFfmpeg.areas.media;
    const { tracks } = noFfmpeg.areas.tracks.services;
    const owner = await serviceUser(noFfmpeg);
    const track = await serviceTrack(noFfmpeg, owner, { seconds: 1 });
    await noFfmpeg.platform.jobs.runDue();
    const status = await media.status(owner, track.id);
    expect(status).toMatchObject({ stream_status: 'error', waveform_ready: false });
    expect(status.status_message).toMatch(/could not be converted for streaming: .*ffmpeg\) is not available/);
    expect(status.progress).toBeLessThan(100);
    expect((await tracks.get(owner, track.id)).track).toMatchObject({
      stream_status: 'error',
      status_message: status.status_message,
      stream_manifest_url: null,
      waveform_path: null,
    });
    expect(await notReady(noFfmpeg.areas.media.hls.open(owner, track.id, 'master.m3u8'))).toEqual(NOT_READY);
    expect(await notReady(media.waveform(owner, track.id))).toEqual(NOT_READY);
    // no retry is left: such a failure does not go away by itself
    expect(await noFfmpeg.platform.jobs.runDue()).toBe(0);
    // the upload itself is untouched: the original stays stored
    expect(await filesUnder(noFfmpeg, `tracks/${track.id}`)).toHaveLength(1);
  });
});

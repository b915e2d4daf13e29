import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaModule, type MediaModule } from '../../server/src/modules/media/media.module.js';
import { StreamStateRepository } from '../../server/src/modules/tracks/stream-state.repository.js';
import { createTrackStreamState } from '../../server/src/modules/tracks/track-stream-state.js';
import type { NewAudio } from '../../server/src/modules/media/media.service.js';
import { systemActor, userActor, type UserActor } from '../../server/src/platform/access/actor.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { openPlatform, type PlatformHandle } from '../../server/src/platform/platform.js';
import { makeAudio, md5, mp3WithCover } from '../support/audio.js';
import { insertBareTrack, insertBareUser } from '../support/bare-rows.js';
import { parsePlaylist, readObject } from '../support/media.js';
import { seedDataDir } from '../support/test-database.js';

/** A platform of its own (no HTTP, no workers: jobs run on demand) with the media module enlisted. */
async function openMedia(env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-media-test-'));
  await seedDataDir(dataDir);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WORKERS: '0',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...env,
  });
  const jobsSchema = `riff_jobs_test_${randomUUID().replaceAll('-', '')}`;
  const handle: PlatformHandle = await openPlatform(config, { jobsSchema });
  const module: MediaModule = createMediaModule(handle.platform, {
    activeUser: async () => undefined,
    keyIsLive: async () => false,
    tracks: createTrackStreamState(new StreamStateRepository(handle.platform.scope)),
  });
  for (const { everyMs: _everyMs, ...job } of module.jobs ?? []) handle.platform.jobs.define(job);
  for (const handler of module.eventHandlers ?? []) handle.platform.events.subscribe(handler);
  await handle.platform.jobs.start();
  return {
    platform: handle.platform,
    media: module.media,
    avatars: module.avatars,
    hls: module.hls,
    async close() {
      if (handle.platform.database.kind === 'postgres')
        await sql.raw(`drop schema if exists ${jobsSchema} cascade`).execute(handle.platform.database.db);
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type Media = Awaited<ReturnType<typeof openMedia>>;

async function createOwner(context: Media): Promise<UserActor> {
  const name = `media${randomUUID().slice(0, 8)}`;
  const user = await insertBareUser(context.platform.database.db, name, `${name}@example.com`);
  return userActor(user, 'bearer');
}

/** A track whose audio is stored as uploads store it, recorded as its current version with the pipeline queued. */
async function createTrackWithAudio(
  context: Media,
  owner: UserActor,
  audio: Buffer,
  options: { isPublic?: boolean; seconds?: number } = {},
) {
  const id = randomUUID();
  const key = `tracks/${id}/original`;
  await context.platform.storage.put(key, Readable.from([audio]));
  const row: NewAudio = {
    file_key: key,
    format: 'mp3',
    duration: options.seconds ?? 3,
    bitrate: 128,
    sample_rate: 44100,
    file_size: audio.length,
    md5: md5(audio),
    original_filename: 'tone.mp3',
  };
  await context.platform.scope.transaction(async () => {
    // scope.db: the unit of work's transaction (PGlite has one connection)
    await insertBareTrack(context.platform.scope.db, {
      id,
      creator_id: owner.id,
      title: 'Tone',
      genres: '[]',
      tags: '[]',
      duration: row.duration,
      file_size: audio.length,
      format: 'mp3',
      file_key: key,
      md5: row.md5,
      status: 'completed',
      is_public: options.isPublic ?? true,
    });
    await context.media.recordAudio(owner, id, row);
  });
  return { id, key };
}

async function replaceAudio(context: Media, owner: UserActor, trackId: string, audio: Buffer) {
  const key = `tracks/${trackId}/${randomUUID()}`;
  await context.platform.storage.put(key, Readable.from([audio]));
  return context.media.recordAudio(owner, trackId, {
    file_key: key,
    format: 'mp3',
    duration: 2,
    bitrate: 128,
    sample_rate: 44100,
    file_size: audio.length,
    md5: md5(audio),
    original_filename: null,
  });
}

describe('the media pipeline', () => {
  let context: Media;
  let owner: UserActor;
  let stranger: UserActor;
  let tagged: Buffer;

  beforeAll(async () => {
    context = await openMedia();
    owner = await createOwner(context);
    stranger = await createOwner(context);
    tagged = await mp3WithCover(8);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('goes pending → ready with HLS, waveform and cover, and status reaches 100 only then', async () => {
    const track = await createTrackWithAudio(context, owner, tagged, { seconds: 8 });
    const pending = await context.media.status(owner, track.id);
    expect(pending).toMatchObject({ progress: 0, stream_status: 'pending', waveform_ready: false });

    expect(await context.platform.jobs.runDue()).toBe(2);
    const status = await context.media.status(owner, track.id);
    expect(status).toEqual({
      progress: 100,
      status: 'completed',
      stream_status: 'ready',
      status_message: null,
      waveform_ready: true,
    });

    const row = await context.platform.database.db
      .selectFrom('tracks')
      .selectAll()
      .where('id', '=', track.id)
      .executeTakeFirstOrThrow();
    expect(row.stream_manifest_url).toBe(
      `${context.platform.config.publicBaseUrl}/api/v1/tracks/${track.id}/hls/master.m3u8`,
    );
    expect(row.waveform_path).toBe(`/api/v1/tracks/${track.id}/waveform`);
    expect(row.cover_art_path).toBe(`/api/v1/tracks/${track.id}/cover`);

    const { key } = await context.hls.open(stranger, track.id, 'master.m3u8');
    const master = parsePlaylist((await readObject(context.platform.storage, key)).toString('utf8'));
    expect(master.playlists?.map((playlist) => playlist.attributes.CODECS)).toEqual(['mp4a.40.2', 'mp4a.40.2']);

    const waveform = await context.media.waveform(stranger, track.id);
    expect(waveform).toMatchObject({ version: 2, channels: 1, bits: 8 });
    expect(waveform.length).toBeLessThanOrEqual(1800);
    const cover = await context.media.cover(stranger, track.id);
    expect(cover.contentType).toBe('image/jpeg');
  });

  it('hides the media of a private track from others (404), and its status', async () => {
    const track = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 2 }), {
      isPublic: false,
      seconds: 2,
    });
    await context.platform.jobs.runDue();
    await expect(context.media.waveform(stranger, track.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(context.media.status(stranger, track.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(context.media.versions(stranger, track.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await context.media.waveform(owner, track.id)).version).toBe(2);
    expect((await context.media.status(systemActor(), track.id)).progress).toBe(100);
  });

  it('answers MEDIA_NOT_READY with Retry-After before the jobs ran', async () => {
    const track = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 1 }), { seconds: 1 });
    const failure = await context.media.waveform(owner, track.id).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'MEDIA_NOT_READY', status: 404, headers: { 'Retry-After': '5' } });
    await context.platform.jobs.runDue();
  });

  it('keeps at most 10 versions, the current included, deleting the files of the oldest', async () => {
    const track = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 1 }), { seconds: 1 });
    for (let i = 0; i < 11; i++)
      await replaceAudio(context, owner, track.id, await makeAudio('mp3', { seconds: 1, frequency: 300 + i }));
    const { versions } = await context.media.versions(owner, track.id);
    expect(versions).toHaveLength(10);
    expect(versions.map((version) => version.version_number)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(versions.filter((version) => version.is_current).map((version) => version.version_number)).toEqual([12]);
    expect(await context.platform.storage.size(track.key)).toBeUndefined();
    await expect(context.media.versions(stranger, track.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });

    // only the last run's jobs do work: the ten runs before it were replaced
    expect(await context.platform.jobs.runDue()).toBe(24);
    expect((await context.media.status(owner, track.id)).progress).toBe(100);

    const oldest = versions.at(-1)!;
    await context.media.restoreVersion(owner, track.id, oldest.id);
    expect((await context.media.status(owner, track.id)).stream_status).toBe('pending');
    await context.platform.jobs.runDue();
    const after = await context.media.versions(owner, track.id);
    expect(after.versions.find((version) => version.is_current)?.id).toBe(oldest.id);
    await expect(context.media.restoreVersion(owner, track.id, oldest.id)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('removes every derived file and older version once the track is deleted', async () => {
    const track = await createTrackWithAudio(context, owner, tagged, { seconds: 8 });
    const old = await replaceAudio(context, owner, track.id, await makeAudio('mp3', { seconds: 1, frequency: 900 }));
    await context.platform.jobs.runDue();
    const { key } = await context.hls.open(owner, track.id, 'master.m3u8');
    expect(await context.platform.storage.size(key)).toBeGreaterThan(0);
    await context.media.forgetTrack(track.id);
    expect(await context.platform.storage.size(key)).toBeUndefined();
    expect(await context.platform.storage.size(track.key)).toBeUndefined();
    // the current audio is the tracks module's to remove
    expect(await context.platform.storage.size(old.file_key)).toBeGreaterThan(0);
  });

  it('stores an avatar in two sizes and replaces or removes it with its files', async () => {
    const photo = await sharp({ create: { width: 800, height: 500, channels: 3, background: 'green' } })
      .jpeg()
      .toBuffer();
    const { url } = await context.avatars.setAvatar(owner, photo);
    expect(url).toBe(`${context.platform.config.publicBaseUrl}/api/v1/users/${owner.id}/avatar`);
    const small = await context.avatars.avatar(owner.id, 128);
    expect((await sharp(Buffer.concat(await small.body.toArray())).metadata()).width).toBe(128);
    const first = await context.platform.database.db
      .selectFrom('user_avatars')
      .selectAll()
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    await context.avatars.setAvatar(owner, photo);
    expect(await context.platform.storage.size(first.large_key)).toBeUndefined();
    await expect(context.avatars.setAvatar(owner, Buffer.from('GIF89a not really'))).rejects.toMatchObject({
      code: 'INVALID_IMAGE',
    });
    expect(await context.avatars.removeAvatar(owner)).toBe(true);
    await expect(context.avatars.avatar(owner.id, 512)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the media pipeline without ffmpeg', () => {
  let context: Media;
  beforeAll(async () => {
    context = await openMedia({ FFMPEG_PATH: path.join(tmpdir(), 'no-such-ffmpeg') });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('ends in stream_status error with a message a user understands, the original untouched', async () => {
    const owner = await createOwner(context);
    const track = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 1 }), { seconds: 1 });
    await context.platform.jobs.runDue();
    const status = await context.media.status(owner, track.id);
    expect(status.stream_status).toBe('error');
    expect(status.status_message).toMatch(/could not be converted for streaming: .*ffmpeg\) is not available/);
    expect(status.progress).toBeLessThan(100);
    expect(await context.platform.storage.size(track.key)).toBeGreaterThan(0);
    // the jobs gave up for good: nothing is left to retry
    expect(await context.platform.jobs.runDue()).toBe(0);
  });
});

describe('the media pipeline with an external transcoder', () => {
  let context: Media;
  beforeAll(async () => {
    context = await openMedia({ MEDIA_TRANSCODER: 'external' });
  });
  afterAll(async () => {
    await context?.close();
  });

  it('waits in processing for the callback, which publishes the run or fails it; 409 when nothing waits', async () => {
    const owner = await createOwner(context);
    const track = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 1 }), { seconds: 1 });
    await expect(context.media.completeExternal(track.id, { status: 'ready' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await context.platform.jobs.runDue();
    expect((await context.media.status(owner, track.id)).stream_status).toBe('processing');

    expect(await context.media.completeExternal(track.id, { status: 'ready' })).toEqual({ message: 'Stream ready' });
    expect(await context.media.status(owner, track.id)).toMatchObject({
      stream_status: 'ready',
      progress: 100,
      waveform_ready: true,
    });
    await expect(context.media.completeExternal(track.id, { status: 'ready' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });

    const other = await createTrackWithAudio(context, owner, await makeAudio('mp3', { seconds: 1 }), { seconds: 1 });
    await context.platform.jobs.runDue();
    await context.media.completeExternal(other.id, { status: 'error', message: 'The encoder ran out of disk' });
    expect(await context.media.status(owner, other.id)).toMatchObject({
      stream_status: 'error',
      status_message: 'The encoder ran out of disk',
    });
    await expect(context.media.completeExternal(randomUUID(), { status: 'ready' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

import { randomUUID } from 'node:crypto';
import { access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { MediaTranscoder } from '@riff/contract';
import type { Logger } from 'pino';
import { systemActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { saveCoverArt } from './cover-art.js';
import { scaledImage, scaledPrefix, servedImage, type ServedImage } from './image-sizes.js';
import { MediaError, type MediaInput } from './ffmpeg-process.js';
import { transcodeToHls } from './hls-transcoder.js';
import { mediaKeys, mediaPaths } from './media-keys.js';
import { committing, removeFiles } from './stored-files.js';
import type { MediaJobData } from './media.jobs.js';
import { toVersionDto } from './media.mapper.js';
import { canManageTrackMedia, canSeeTrackMedia } from './media.policy.js';
import type { TrackStreamState } from '../tracks/track-stream-state.js';
import type { MediaRepository, MediaTrack, NewTrackVersion, TrackVersionRow } from './media.repository.js';
import { computeWaveform, type Waveform } from './waveform.js';

/** At most 10 versions of a track's audio are kept, the current one included (they count against the quota). */
export const MAX_VERSIONS = 10;
/** Attempts of a media job (a storage hiccup is retried; a file ffmpeg cannot read is not). */
export const MEDIA_JOB_RETRIES = 3;

export interface MediaServiceDeps {
  scope: DbScope;
  media: MediaRepository;
  /** The tracks area's: the track's stream columns, set in the unit of work that moves a run on. */
  tracks: TrackStreamState;
  storage: ObjectStorage;
  jobs: JobQueue;
  events: EventBus;
  logger: Logger;
  ffmpegPath: string;
  transcoder: MediaTranscoder;
  publicBaseUrl: string;
}

/** The audio of a new version, as the upload read it. */
export type NewAudio = Omit<NewTrackVersion, 'id' | 'track_id' | 'version_number' | 'is_current' | 'created_at'>;

/**
 * The media pipeline: queued with an upload's unit of work, run as jobs (HLS; waveform and cover),
 * read by the owner (status, versions) and by whoever may see the track (waveform, cover).
 */
export class MediaService {
  constructor(private readonly deps: MediaServiceDeps) {}

  private get repo() {
    return this.deps.media;
  }

  /** A unit of work whose file removals wait for its commit (see stored-files.ts). */
  private committing<T>(work: (later: (removal: () => Promise<void>) => void) => Promise<T>): Promise<T> {
    return committing(this.deps.scope, work);
  }

  // ---- what the tracks module calls in its units of work

  /**
   * Records `audio` as the track's current version (the one it replaces stays a version), drops
   * versions beyond MAX_VERSIONS (their files go after commit) and queues the pipeline. Call it in
   * the unit of work that stores the track's new audio, after tracks.file_key names it.
   */
  async recordAudio(actor: Actor, trackId: string, audio: NewAudio): Promise<TrackVersionRow> {
    return this.committing(async (later) => {
      const version = await this.repo.addCurrentVersion({ id: randomUUID(), track_id: trackId, ...audio });
      const pruned = await this.repo.pruneVersions(trackId, MAX_VERSIONS);
      if (pruned.length > 0) later(() => this.removeFiles(pruned.map((old) => old.file_key)));
      await this.queuePipeline(actor, trackId);
      return version;
    });
  }

  /**
   * Makes an older version current again and queues the pipeline for it; returns it so the tracks
   * module copies its file_key, format, duration, bitrate, sample_rate and file_size onto the track.
   */
  async restoreVersion(actor: UserActor, trackId: string, versionId: string): Promise<TrackVersionRow> {
    return this.deps.scope.transaction(async () => {
      await this.manageable(actor, trackId);
      const version = await this.repo.version(trackId, versionId);
      if (!version) throw notFound('Version');
      if (version.is_current) throw new AppError('CONFLICT', 'This version is already the current audio');
      await this.repo.makeCurrent(trackId, versionId);
      await this.queuePipeline(actor, trackId);
      return version;
    });
  }

  /** Starts a new run for the track's current audio: both jobs queued in the caller's unit of work. */
  async queuePipeline(_actor: Actor, trackId: string): Promise<string> {
    return this.deps.scope.transaction(async () => {
      const runId = randomUUID();
      const version = await this.repo.currentVersion(trackId);
      const { replacedHls } = await this.repo.startRun(trackId, {
        runId,
        versionId: version?.id ?? null,
        transcoder: this.deps.transcoder,
      });
      await this.deps.tracks.set(trackId, {
        stream_status: 'pending',
        status_message: null,
        stream_manifest_url: null,
      });
      if (replacedHls) {
        this.deps.scope.afterCommit(() =>
          this.deps.storage
            .deletePrefix(replacedHls)
            .catch((error: unknown) =>
              this.deps.logger.warn({ err: error, trackId }, 'could not delete a replaced HLS'),
            ),
        );
      }
      await this.deps.jobs.enqueue('media.hls', { trackId, runId });
      await this.deps.jobs.enqueue('media.waveform', { trackId, runId });
      return runId;
    });
  }

  // ---- the track's stream columns, kept with the run's state (in the caller's unit of work)

  /** The run's HLS job started, unless the run is stale: the stream is processing. */
  private async startHls(trackId: string, runId: string): Promise<boolean> {
    if (!(await this.repo.startHls(trackId, runId))) return false;
    await this.deps.tracks.set(trackId, { stream_status: 'processing' });
    return true;
  }

  /** The run's HLS failed, unless the run is stale: the stream is in error, with the message. */
  private async failHls(trackId: string, runId: string, message: string): Promise<boolean> {
    if (!(await this.repo.failHls(trackId, runId, message))) return false;
    await this.deps.tracks.set(trackId, { stream_status: 'error', status_message: message });
    return true;
  }

  /** The run's HLS is published, unless the run is stale: the stream is ready at the track's master playlist. */
  private async publishHls(trackId: string, runId: string, prefix: string) {
    const done = await this.repo.publishHls(trackId, runId, prefix);
    if (done) {
      await this.deps.tracks.set(trackId, {
        stream_status: 'ready',
        stream_manifest_url: `${this.deps.publicBaseUrl}${mediaPaths.master(trackId)}`,
      });
    }
    return done;
  }

  // ---- reads

  private async visible(actor: Actor, trackId: string, secret?: string): Promise<MediaTrack> {
    const track = await this.deps.tracks.find(trackId);
    if (!track || !canSeeTrackMedia(actor, track, secret)) throw notFound('Track');
    return track;
  }

  private async manageable(actor: Actor, trackId: string): Promise<MediaTrack> {
    const track = await this.deps.tracks.find(trackId);
    if (!track || !canManageTrackMedia(actor, track)) throw notFound('Track');
    return track;
  }

  /** GET /tracks/{id}/status: progress over both jobs, 100 exactly when HLS and the waveform are ready. */
  async status(actor: Actor, trackId: string) {
    const track = await this.manageable(actor, trackId);
    const media = await this.repo.media(trackId);
    const waveformReady = media?.waveform_state === 'ready';
    const ready = track.stream_status === 'ready' && waveformReady;
    // HLS is most of the work: 90 %, the waveform the rest
    const progress = ready
      ? 100
      : Math.min(99, Math.floor((media?.hls_progress ?? 0) * 0.9) + (waveformReady ? 10 : 0));
    return {
      progress,
      status: track.status,
      stream_status: track.stream_status,
      status_message: track.status_message ?? media?.message ?? null,
      waveform_ready: waveformReady,
    };
  }

  /** GET /tracks/{id}/versions: newest first, the current audio included; 403 for another user who may see the track. */
  async versions(actor: Actor, trackId: string) {
    const track = await this.visible(actor, trackId);
    if (!canManageTrackMedia(actor, track)) throw forbidden('Only the owner sees the versions of a track');
    return { versions: (await this.repo.versions(trackId)).map(toVersionDto) };
  }

  /** GET /tracks/{id}/waveform: the audiowaveform JSON itself. */
  async waveform(actor: Actor, trackId: string, secret?: string): Promise<Waveform> {
    await this.visible(actor, trackId, secret);
    const media = await this.repo.media(trackId);
    if (!media?.waveform_key || media.waveform_state !== 'ready') {
      throw new AppError('MEDIA_NOT_READY', 'The waveform is not ready yet', { headers: { 'Retry-After': '5' } });
    }
    return JSON.parse((await buffer(await this.deps.storage.get(media.waveform_key))).toString('utf8')) as Waveform;
  }

  /** GET /tracks/{id}/cover: the stored picture and its type; 404 when the file embeds none. */
  async cover(
    actor: Actor,
    trackId: string,
    secret?: string,
  ): Promise<{ body: Readable; contentType: string; size: number | undefined }> {
    await this.visible(actor, trackId, secret);
    const media = await this.repo.media(trackId);
    if (!media?.cover_key || !media.cover_content_type) throw notFound('Cover');
    return {
      body: await this.deps.storage.get(media.cover_key),
      contentType: media.cover_content_type,
      size: await this.deps.storage.size(media.cover_key),
    };
  }

  /**
   * A track's cover for players (the Subsonic interface's getCoverArt), to whoever may see it as
   * GET /tracks/{id}/cover allows: as stored, or fitted inside side×side (never enlarged), each side
   * made once and kept beside the cover (image-sizes.ts), so it goes when the cover goes. `etag`
   * names these bytes (the stored file's key: a new cover is a new key) and is known before they
   * are read, for an If-None-Match answered without them.
   */
  async coverImage(actor: Actor, trackId: string, side?: number): Promise<ServedImage> {
    await this.visible(actor, trackId);
    const media = await this.repo.media(trackId);
    if (!media?.cover_key || !media.cover_content_type) throw notFound('Cover');
    const source = { key: media.cover_key, contentType: media.cover_content_type };
    return servedImage(
      this.deps.storage,
      side === undefined ? source : await scaledImage(this.deps.storage, source, side),
    );
  }

  // ---- the jobs

  /** Where a job reads the current audio: the local file when the driver has one, else a stream. */
  private async input(key: string): Promise<MediaInput> {
    const local = this.deps.storage.localPath(key);
    if (
      local &&
      (await access(local).then(
        () => true,
        () => false,
      ))
    )
      return local;
    return this.deps.storage.get(key);
  }

  private async audioKey(trackId: string): Promise<{ track: MediaTrack; key: string } | undefined> {
    const track = await this.deps.tracks.find(trackId);
    const key = (await this.repo.currentVersion(trackId))?.file_key ?? track?.file_key;
    return track && key && !track.deleted_at ? { track, key } : undefined;
  }

  /** The HLS job: encode, publish, then point the track at the new rendition (the previous one goes). */
  async runHls({ trackId, runId }: MediaJobData, attempt = 1): Promise<'ready' | 'error' | 'stale' | 'waiting'> {
    if (!(await this.deps.scope.transaction(() => this.startHls(trackId, runId)))) return 'stale';
    const audio = await this.audioKey(trackId);
    if (!audio) return 'stale';
    if (this.deps.transcoder === 'external') return 'waiting';
    const prefix = mediaKeys.hls(trackId, runId);
    let progress = Promise.resolve();
    try {
      await transcodeToHls(
        await this.input(audio.key),
        { storage: this.deps.storage, prefix },
        {
          ffmpegPath: this.deps.ffmpegPath,
          durationSeconds: audio.track.duration || undefined,
          onProgress: (percent) => {
            if (percent >= 100) return;
            progress = progress.then(() => this.repo.hlsProgress(trackId, runId, percent)).catch(() => undefined);
          },
        },
      );
      await progress;
    } catch (error) {
      await progress;
      if (!(error instanceof MediaError) && attempt <= MEDIA_JOB_RETRIES) throw error;
      const message =
        error instanceof MediaError ? error.message : 'The audio could not be converted for streaming: storage failed';
      this.deps.logger.warn({ err: error, trackId, detail: (error as MediaError).detail }, 'HLS job failed');
      await this.deps.scope.transaction(async () => {
        if (await this.failHls(trackId, runId, message)) await this.processed(trackId, 'error');
      });
      return 'error';
    }
    const published = await this.deps.scope.transaction(async () => {
      const done = await this.publishHls(trackId, runId, prefix);
      if (done) await this.processed(trackId, 'ready');
      return done;
    });
    if (!published) {
      await this.deps.storage.deletePrefix(prefix);
      return 'stale';
    }
    if (published.replaced) await this.deps.storage.deletePrefix(published.replaced).catch(() => undefined);
    return 'ready';
  }

  /** The waveform job, which also stores the embedded cover. */
  async runWaveform({ trackId, runId }: MediaJobData, attempt = 1): Promise<'ready' | 'error' | 'stale'> {
    if (!(await this.deps.scope.transaction(() => this.repo.startWaveform(trackId, runId)))) return 'stale';
    const audio = await this.audioKey(trackId);
    if (!audio) return 'stale';
    const waveformKey = mediaKeys.waveform(trackId, runId);
    let cover: { key: string; contentType: string; path: string } | undefined;
    try {
      const peaks = await computeWaveform(await this.input(audio.key), {
        ffmpegPath: this.deps.ffmpegPath,
        durationSeconds: audio.track.duration || undefined,
      });
      await this.deps.storage.put(waveformKey, Readable.from([Buffer.from(JSON.stringify(peaks))]), {
        contentType: 'application/json',
      });
    } catch (error) {
      if (!(error instanceof MediaError) && attempt <= MEDIA_JOB_RETRIES) throw error;
      this.deps.logger.warn({ err: error, trackId }, 'waveform job failed');
      const message =
        error instanceof MediaError
          ? error.message
          : 'The audio could not be analysed for its waveform: storage failed';
      await this.deps.scope.transaction(() => this.repo.failWaveform(trackId, runId, message));
      return 'error';
    }
    try {
      const stored = await saveCoverArt(await this.input(audio.key), {
        storage: this.deps.storage,
        key: mediaKeys.cover(trackId, runId),
      });
      if (stored) cover = { key: stored.key, contentType: stored.contentType, path: mediaPaths.cover(trackId) };
    } catch (error) {
      // tags that cannot be read cost the track its cover, nothing else
      this.deps.logger.warn({ err: error, trackId }, 'could not read the cover art');
    }
    const published = await this.deps.scope.transaction(async () => {
      const done = await this.repo.publishAnalysis(trackId, runId, { waveformKey, cover });
      if (done) {
        await this.deps.tracks.set(trackId, {
          waveform_path: mediaPaths.waveform(trackId),
          cover_art_path: cover?.path ?? null,
        });
      }
      return done;
    });
    if (!published) {
      await this.removeFiles([waveformKey, ...(cover ? [cover.key] : [])]);
      return 'stale';
    }
    await this.removeFiles(published.replaced);
    // the scaled copies players were served of the replaced cover (coverImage; the waveform has none)
    for (const key of published.replaced)
      await this.deps.storage.deletePrefix(scaledPrefix(key)).catch(() => undefined);
    return 'ready';
  }

  /**
   * POST /tracks/{id}/hls/callback (MEDIA_TRANSCODER=external), after the route checked the
   * signature: the external transcoder reports the run's rendition ready (written under the run's
   * HLS prefix) or failed. 409 when the track waits for no such call.
   */
  async completeExternal(trackId: string, result: { status: 'ready' | 'error'; message?: string | undefined }) {
    return this.committing(async (later) => {
      const track = await this.deps.tracks.find(trackId);
      if (!track || track.deleted_at) throw notFound('Track');
      const media = await this.repo.media(trackId);
      if (!media || media.transcoder !== 'external' || media.hls_state !== 'processing') {
        throw new AppError('CONFLICT', 'This track is not waiting for its stream');
      }
      if (result.status === 'error') {
        if (
          await this.failHls(
            trackId,
            media.run_id,
            result.message?.trim() || 'The audio could not be converted for streaming',
          )
        )
          await this.processed(trackId, 'error');
        return { message: 'Stream marked failed' };
      }
      const published = await this.publishHls(trackId, media.run_id, mediaKeys.hls(trackId, media.run_id));
      if (published) await this.processed(trackId, 'ready');
      if (published && published.replaced) {
        const replaced = published.replaced;
        later(() => this.deps.storage.deletePrefix(replaced).catch(() => undefined));
      }
      return { message: 'Stream ready' };
    });
  }

  /** track.processed for the track's owner, in the unit of work that set stream_status. */
  private async processed(trackId: string, status: 'ready' | 'error') {
    const track = await this.deps.tracks.find(trackId);
    await this.deps.events.record(systemActor(), 'track.processed', {
      subject: { resource: 'track', id: trackId },
      data: { stream_status: status },
      userId: track?.creator_id ?? null,
    });
  }

  // ---- deletion

  /** After a track is deleted: every derived file, every run, and every older version with its audio (the current audio is the tracks module's). */
  async forgetTrack(trackId: string): Promise<void> {
    const versions = await this.deps.scope.transaction(async () => {
      await this.repo.forgetMedia(trackId);
      return this.repo.forgetOldVersions(trackId);
    });
    await this.deps.storage.deletePrefix(mediaKeys.track(trackId));
    await this.removeFiles(versions.map((version) => version.file_key));
  }

  private removeFiles(keys: string[]): Promise<void> {
    return removeFiles(this.deps.storage, this.deps.logger, keys);
  }
}

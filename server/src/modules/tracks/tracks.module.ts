import { countLikes } from './tracks.events.js';
import './tracks.jobs.js';
import type { Platform } from '../../platform/platform.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { RiffModule } from '../../platform/module.js';
import type { TrackRow } from './tracks.tables.js';
import type { MediaService } from '../media/media.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { chunkKey, ChunkedUploadsService } from './chunked-uploads.service.js';
import { RecentTracks } from './recent-tracks.js';
import { RunningDigests } from './running-digests.js';
import { TracksRepository } from './tracks.repository.js';
import { tracksRoutes } from './tracks.routes.js';
import { TracksService } from './tracks.service.js';
import { TrackFileService } from './track-file.service.js';
import { createTrackCounters, type TrackCounters } from './track-counters.js';
import { createTrackAudio, type TrackAudio } from './track-audio.js';
import { createTrackReader, type TrackReader } from './track-reader.js';
import { createTrackSecretLinks, type TrackSecretLinks } from './track-secret.js';
import { createTrackStreamState, type TrackStreamState } from './track-stream-state.js';
import { StreamStateRepository } from './stream-state.repository.js';
import { TrackSearchRepository } from './track-search.repository.js';
import { TrackSearchService } from './track-search.service.js';
import { UploadPipeline, type UploadAllowance, type UploadRules } from './upload-pipeline.js';
import { UploadSessionsRepository } from './upload-sessions.repository.js';
import { UploadsService } from './uploads.service.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { createTrackModeration } from './track-moderation.js';

export type TracksModule = RiffModule & {
  /** Its items' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { uploads: UploadsService; tracks: TracksService; files: TrackFileService };
  /** For track social: who may see a track, read through the streaming cache (plays are as hot as streams). */
  tracks: TracksService;
  /** For other areas (queue, playlists): which tracks a caller may see, as they see them. */
  reader: TrackReader;
  /** For the Subsonic interface: a track's audio as /tracks/{id}/stream and /download serve it, and its bytes. */
  audio: TrackAudio;
  /** For playlists: the like counts an erased account's favorites leave. */
  counters: TrackCounters;
  /** For track social: the secret links it shares and revokes. */
  secretLinks: TrackSecretLinks;
  /** For GET /search and its suggestions: the tracks' part. */
  searcher: TrackSearchService;
  /** For the media pipeline: the stream columns it reads and keeps. */
  streams: TrackStreamState;
  /** For the purge of removed content (appeals): removed tracks and the deletion of one with its files. */
  purge: {
    removedBefore(cutoff: Date, afterId: string | null, limit: number): Promise<string[]>;
    purge(id: string, cutoff: Date): Promise<boolean>;
  };
  /**
   * For the cloud area: the space a user may still fill (the quota less tracks, cloud files and open
   * chunked sessions), read inside the caller's unit of work (hold the account lock first).
   */
  quota: {
    allowed(userId: string): Promise<UploadAllowance>;
    room(userId: string, quotaBytes: number): Promise<number>;
  };
  /** For the admin area's figures: live tracks, new ones, the bytes stored. */
  figures: (since: Date) => ReturnType<TracksRepository['figures']>;
};

/** Tracks: uploads (one request or chunked), the catalog, lyrics, streaming and downloads. */
export function createTracksModule(
  platform: Platform,
  {
    media,
    people,
    rules,
    cloudUsage,
  }: {
    media: MediaService;
    /** The users area's account lock: uploads are counted against a user's quota one at a time. */
    people: Pick<PeopleReader, 'lockAccount'>;
    /** Whether and how much an account may upload (the platform's settings, the account's quota). */
    rules: UploadRules;
    /** The cloud area's usage port: its bytes share the quota with tracks. */
    cloudUsage?: { bytesOf(userId: string): Promise<number> };
  },
): TracksModule {
  const { config, scope, storage, events, clock, logger } = platform;
  const tracksRepository = new TracksRepository(scope);
  const recent = new RecentTracks();
  const tracks = new TracksService({
    scope,
    tracks: tracksRepository,
    storage,
    events,
    clock,
    logger,
    recent,
    media,
    publicBaseUrl: config.publicBaseUrl,
  });
  const searcher = new TrackSearchService({
    search: new TrackSearchRepository(scope),
    publicBaseUrl: config.publicBaseUrl,
  });
  const recordAudio = (actor: Parameters<MediaService['recordAudio']>[0], track: TrackRow) =>
    media.recordAudio(actor, track.id, {
      file_key: track.file_key ?? '',
      format: track.format,
      duration: track.duration,
      bitrate: track.bitrate,
      sample_rate: track.sample_rate,
      file_size: Number(track.file_size),
      md5: track.md5,
      original_filename: track.original_filename,
    });
  const uploading = {
    scope,
    tracks: tracksRepository,
    sessions: new UploadSessionsRepository(scope),
    storage,
    events,
    clock,
    limits: config.uploads,
    logger,
    people,
    rules,
    cloudUsage,
  };
  const pipeline = new UploadPipeline({ ...uploading, media: { recordAudio } });
  const uploads = new UploadsService({ ...uploading, pipeline });
  // a track's audio replaced (its versions) and restored
  const files = new TrackFileService({ ...uploading, pipeline, media, publicBaseUrl: config.publicBaseUrl });
  return {
    name: 'tracks',
    moderation: createTrackModeration(platform.scope, platform.clock),
    services: { uploads, tracks, files },
    reader: createTrackReader(tracksRepository, config.publicBaseUrl),
    audio: createTrackAudio({ tracks, storage }),
    counters: createTrackCounters(tracksRepository),
    secretLinks: createTrackSecretLinks(tracksRepository),
    streams: createTrackStreamState(new StreamStateRepository(scope)),
    searcher,
    figures: (since) => tracksRepository.figures(since),
    quota: {
      allowed: (userId) => pipeline.allowed(userId),
      room: (userId, quotaBytes) => pipeline.room(userId, quotaBytes),
    },
    purge: {
      removedBefore: (cutoff, afterId, limit) => tracksRepository.removedBefore(cutoff, afterId, limit),
      purge: (id, cutoff) => tracks.purgeRemoved(id, cutoff),
    },
    routes: {
      tracks: tracksRoutes({
        tracks,
        search: searcher,
        uploads,
        chunked: new ChunkedUploadsService({
          ...uploading,
          pipeline,
          digests: new RunningDigests(storage, chunkKey),
        }),
        files,
        storage,
      }),
    },
    jobs: [
      {
        name: 'uploads.cleanup',
        retryLimit: 0,
        expireInSeconds: 60 * 60,
        everyMs: config.cleanupIntervalMs,
        handle: () => pipeline.cleanup(),
      },
    ],
    // uploads cut off by the shutdown remove their partial files while the database is still there
    drain: () => pipeline.drain(),
    eventHandlers: [
      countLikes(tracksRepository) as unknown as EventHandler,
      {
        name: 'tracks.forget-recent',
        // a secret link made or revoked changes who may stream the cached row (track social)
        types: ['track.updated', 'track.deleted', 'track.shared', 'track.share_revoked'],
        delivery: 'in-transaction',
        // forgotten once the change commits: a read in between would cache the row as it was
        handle: async (event) => scope.afterCommit(() => recent.forget(event.subject.id ?? '')),
      },
    ],
    accountData: {
      export: (owner) => tracks.exportFor(owner),
      erase: (owner, options) => tracks.eraseFor(owner, options),
    },
    tracks,
  };
}

import './media.events.js';
import type { KeyRef } from '../../platform/auth/token-signer.js';
import type { UserRow } from '../users/users.tables.js';
import type { TrackStreamState } from '../tracks/track-stream-state.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { ModuleJob, RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import { AvatarsService } from './avatars.service.js';
import { photoSizes } from './images.js';
import { HlsStreams } from './hls-streams.js';
import { MediaRepository } from './media.repository.js';
import { mediaRoutes } from './media.routes.js';
import './media.jobs.js';
import { MEDIA_JOB_RETRIES, MediaService } from './media.service.js';
import { PlaybackTokens } from './playback-token.js';

export type MediaModule = RiffModule & {
  /** For the tracks module: recordAudio, restoreVersion, status, versions, waveform, cover. */
  media: MediaService;
  /** For the users module: the avatars its profiles show. */
  avatars: AvatarsService;
  /** Images other areas store (gear photos), re-encoded without metadata as avatars are. */
  images: { photoSizes: typeof photoSizes };
  /** Reading a track's HLS: who may, which run's files, what the playlists' URIs carry. */
  hls: HlsStreams;
};

export interface MediaModuleDeps {
  /** The user behind a playback token, if they may still act (the users area's). */
  activeUser(id: string): Promise<UserRow | undefined>;
  /** Whether the API key a playback token's stream token was minted with is still live. */
  keyIsLive(key: KeyRef): Promise<boolean>;
  /** The tracks area's: a track's stream columns, read by every HLS request and set by the pipeline. */
  tracks: TrackStreamState;
}

/**
 * The media pipeline: HLS, waveform and cover jobs on the platform's queue, audio versions and
 * avatars. The tracks module records each new audio through it; tracks.status reads it.
 */
export function createMediaModule(platform: Platform, deps: MediaModuleDeps): MediaModule {
  const repository = new MediaRepository(platform.scope);
  const hls = new HlsStreams({
    media: repository,
    tracks: deps.tracks,
    tokens: new PlaybackTokens({ signer: platform.signer, clock: platform.clock }),
    activeUser: (id) => deps.activeUser(id),
    keyIsLive: (key) => deps.keyIsLive(key),
  });
  const media = new MediaService({
    scope: platform.scope,
    media: repository,
    tracks: deps.tracks,
    storage: platform.storage,
    jobs: platform.jobs,
    events: platform.events,
    logger: platform.logger,
    ffmpegPath: platform.config.ffmpegPath,
    transcoder: platform.config.media.transcoder,
    publicBaseUrl: platform.config.publicBaseUrl,
  });
  const jobs: ModuleJob[] = [
    {
      name: 'media.hls',
      retryLimit: MEDIA_JOB_RETRIES,
      // a killed transcode runs again once its lease expires: longer than a long track takes
      expireInSeconds: 30 * 60,
      handle: (data, job) => media.runHls(data, job.attempt),
    },
    {
      name: 'media.waveform',
      retryLimit: MEDIA_JOB_RETRIES,
      expireInSeconds: 15 * 60,
      handle: (data, job) => media.runWaveform(data, job.attempt),
    },
  ];
  const avatars = new AvatarsService({
    scope: platform.scope,
    avatars: repository,
    storage: platform.storage,
    logger: platform.logger,
    publicBaseUrl: platform.config.publicBaseUrl,
  });
  const trackDeleted: EventHandler<'track.deleted'> = {
    name: 'media.track-deleted',
    types: ['track.deleted'],
    handle: async (event) => {
      if (event.subject.id) await media.forgetTrack(event.subject.id);
    },
  };
  return {
    name: 'media',
    routes: {
      media: mediaRoutes({
        media,
        hls,
        storage: platform.storage,
        clock: platform.clock,
        callbackSecret: platform.config.media.callbackSecret,
      }),
    },
    jobs,
    eventHandlers: [trackDeleted as unknown as EventHandler],
    // the avatar; a track's media goes with the track (track.deleted)
    accountData: { erase: (owner) => avatars.eraseFor(owner) },
    media,
    avatars,
    images: { photoSizes },
    hls,
  };
}

import './tracks.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { ChunkedUploadsService } from './chunked-uploads.service.js';
import { RecentTracks } from './recent-tracks.js';
import { TracksRepository } from './tracks.repository.js';
import { tracksRoutes } from './tracks.routes.js';
import { TracksService } from './tracks.service.js';
import { UploadPipeline } from './upload-pipeline.js';
import { UploadSessionsRepository } from './upload-sessions.repository.js';
import { UploadsService } from './uploads.service.js';

/** Tracks: uploads (one request or chunked), the catalog, lyrics, streaming and downloads. */
export function createTracksModule(platform: Platform): RiffModule {
  const { config, scope, storage, events, clock, logger } = platform;
  const tracksRepository = new TracksRepository(scope);
  const recent = new RecentTracks();
  const tracks = new TracksService({ scope, tracks: tracksRepository, storage, events, clock, logger, recent });
  const pipeline = new UploadPipeline({
    scope,
    tracks: tracksRepository,
    sessions: new UploadSessionsRepository(scope),
    storage,
    events,
    clock,
    limits: config.uploads,
    logger,
  });
  return {
    name: 'tracks',
    routes: { tracks: tracksRoutes({ tracks, uploads: new UploadsService(pipeline), chunked: new ChunkedUploadsService(pipeline), storage }) },
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
      {
        name: 'tracks.forget-recent',
        types: ['track.updated', 'track.deleted'],
        delivery: 'in-transaction',
        // forgotten once the change commits: a read in between would cache the row as it was
        handle: async (event) => scope.afterCommit(() => recent.forget(event.subject.id ?? '')),
      },
    ],
    accountData: {
      export: (owner) => tracks.exportFor(owner),
      erase: (owner, options) => tracks.eraseFor(owner, options),
    },
  };
}

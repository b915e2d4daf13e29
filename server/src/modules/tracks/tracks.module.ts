import './tracks.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { TracksRepository } from './tracks.repository.js';
import { tracksRoutes } from './tracks.routes.js';
import { TracksService } from './tracks.service.js';
import { UploadSessionsRepository } from './upload-sessions.repository.js';
import { UploadsService } from './uploads.service.js';

export type TracksModule = RiffModule & { service: TracksService };

/** Tracks: uploads (one request or chunked), the catalog, lyrics, streaming and downloads. */
export function createTracksModule(platform: Platform, deps: { audit: AuditRepository }): TracksModule {
  const { config, database, storage, clock, logger } = platform;
  const tracksRepository = new TracksRepository(database.db);
  const tracks = new TracksService({ tracks: tracksRepository, storage, audit: deps.audit, clock, logger });
  const uploads = new UploadsService({
    db: database.db,
    tracks: tracksRepository,
    sessions: new UploadSessionsRepository(database.db),
    storage,
    audit: deps.audit,
    clock,
    limits: config.uploads,
    logger,
  });
  return {
    name: 'tracks',
    routes: { tracks: tracksRoutes({ tracks, uploads, storage }) },
    jobs: [
      {
        name: 'uploads.cleanup',
        retryLimit: 0,
        expireInSeconds: 60 * 60,
        everyMs: config.cleanupIntervalMs,
        handle: () => uploads.cleanup(),
      },
    ],
    // uploads cut off by the shutdown remove their partial files while the database is still there
    drain: () => uploads.drain(),
    service: tracks,
  };
}

import './analytics.jobs.js';
import type { Actor } from '../../platform/access/actor.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import type { Playlist, Profile } from '@riff/contract';
import type { TrackReader } from '../tracks/track-reader.js';
import { AnalyticsRepository } from './analytics.repository.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';
import { AnalyticsRollup, type OrderSales } from './analytics-rollup.js';
import { RollupRepository } from './rollup.repository.js';

/** Events applied per transaction: a few thousand keep a batch's statements short and its memory small. */
const ROLLUP_BATCH = 2000;

export interface AnalyticsModuleDeps {
  tracks: Pick<TrackReader, 'visibleTracks' | 'findLiveMany'>;
  playlists(actor: Actor, ids: readonly string[]): Promise<Map<string, Playlist>>;
  /** Users who may be named in the viewer's audience: public profile, not opted out, no block either way. */
  audience(ids: readonly string[], viewerId: string): Promise<Map<string, Profile>>;
  orderSales(orderIds: readonly string[]): Promise<Map<string, OrderSales>>;
}

export type AnalyticsModule = RiffModule & {
  services: { analytics: AnalyticsService; rollup: AnalyticsRollup };
  /** For the playlists area: counted plays started from a playlist, and its most played tracks. */
  playsFromPlaylist: AnalyticsService['playsFromPlaylist'];
};

/**
 * Creators' analytics: a job rolls counted plays, likes, reposts, comments, shares, downloads,
 * follows and sales up into daily rows and ranks; every reply reads those alone.
 */
export function createAnalyticsModule(platform: Platform, deps: AnalyticsModuleDeps): AnalyticsModule {
  const { scope, clock, config, events } = platform;
  const store = new RollupRepository(scope);
  const rollup = new AnalyticsRollup({
    scope,
    store,
    events,
    clock,
    batchSize: ROLLUP_BATCH,
    tracks: async (ids) =>
      new Map(
        (await deps.tracks.findLiveMany(ids)).map((row) => [
          row.id,
          { creator_id: row.creator_id, duration: Number(row.duration ?? 0) },
        ]),
      ),
    orderSales: deps.orderSales,
  });
  const service = new AnalyticsService({
    analytics: new AnalyticsRepository(scope),
    clock,
    tracks: (actor, ids) => deps.tracks.visibleTracks(actor, ids),
    titles: async (creatorId, ids) =>
      new Map(
        (await deps.tracks.findLiveMany(ids))
          .filter((row) => row.creator_id === creatorId)
          .map((row) => [row.id, row.title]),
      ),
    playlists: deps.playlists,
    audience: deps.audience,
  });
  const forgetTrack: EventHandler<'track.deleted'> = {
    name: 'analytics.forget-track',
    types: ['track.deleted'],
    handle: async (event) => {
      if (event.subject.id) await store.removeScopes('track', [event.subject.id]);
    },
  };
  return {
    name: 'analytics',
    services: { analytics: service, rollup },
    playsFromPlaylist: (id) => service.playsFromPlaylist(id),
    routes: { analytics: analyticsRoutes(service) },
    eventHandlers: [rollup.handler, forgetTrack],
    jobs: [
      {
        name: 'analytics.rollup',
        everyMs: config.analyticsRollupSeconds * 1000,
        retryLimit: 0,
        handle: () => rollup.run(),
      },
    ],
    // nothing of the roll-ups goes into the account export: they count other people's plays (the
    // user's own listening history is the social area's part of the export)
    accountData: {
      // as a listener, their identity leaves every creator's roll-ups (the counts stay); as a creator, their own go
      erase: async (owner) => {
        await store.forgetListener(owner.id);
        await store.removeScopes('creator', [owner.id]);
        return {};
      },
    },
  };
}

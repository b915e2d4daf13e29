import './social.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { FavoritesService } from '../playlists/favorites.service.js';
import type { TrackCounters } from '../tracks/track-counters.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { TrackSecretLinks } from '../tracks/track-secret.js';
import type { TracksService } from '../tracks/tracks.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { PlaysRepository } from './plays.repository.js';
import { PlaysService, type CommentCounter } from './plays.service.js';
import { RecommendationsRepository } from './recommendations.repository.js';
import { RecommendationsService } from './recommendations.service.js';
import { SocialRepository } from './social.repository.js';
import { socialRoutes } from './social.routes.js';
import { SocialService } from './social.service.js';

export interface SocialModuleDeps {
  favorites: FavoritesService;
  /** Plays check the track through its streaming cache. */
  tracks: TracksService;
  /** The tracks area's read port: live tracks' rows, to which the track rules apply. */
  reader: TrackReader;
  /** The tracks area's store of secret links. */
  secretLinks: TrackSecretLinks;
  /** The tracks area's counters: a counted play raises play_count in the statement that counts it. */
  trackCounters: TrackCounters;
  /** The users area's read port: whom a caller may see, blocks, profiles. */
  people: PeopleReader;
  /** The comments area's count for the stats. */
  comments: CommentCounter;
}

export type SocialModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { social: SocialService; plays: PlaysService };
  /** For the admin area's figures: counted plays since. */
  countedPlaysSince(since: Date): Promise<number>;
  /** For the Subsonic interface (getSimilarSongs2, getArtistInfo2): tracks similar to a track, as GET /tracks/{id}/recommendations finds them. */
  recommendations: Pick<RecommendationsService, 'similar'>;
};

/**
 * Track social: likes (the favorites playlist, through the playlists module), reposts and the
 * feed, shares and secret links, plays and the listening history, stats, recommendations, tags.
 */
export function createSocialModule(
  platform: Platform,
  { favorites, tracks, reader, secretLinks, trackCounters, people, comments }: SocialModuleDeps,
): SocialModule {
  const { scope, events, keys, limits, clock, config, salts } = platform;
  const social = new SocialService({
    scope,
    social: new SocialRepository(scope),
    favorites,
    tracks: reader,
    people,
    secretLinks,
    events,
    shares: policyLimiter(limits, 'shares'),
    secretKey: keys.key('track-secret-link'),
    addressKey: keys.key('play-listener'),
    publicBaseUrl: config.publicBaseUrl,
  });
  const playRows = new PlaysRepository(
    scope,
    {
      max: config.plays.anonymousPerAddress,
      periodHours: config.plays.anonymousPeriodHours,
    },
    trackCounters,
  );
  const plays = new PlaysService({
    scope,
    plays: playRows,
    social,
    tracks,
    events,
    clock,
    limiter: policyLimiter(limits, 'plays'),
    listenerKey: keys.key('play-listener'),
    salts,
    comments,
  });
  const recommendations = new RecommendationsService({
    recommendations: new RecommendationsRepository(scope),
    social,
    clock,
  });
  return {
    name: 'social',
    services: { social, plays },
    countedPlaysSince: (since) => playRows.countedSince(since),
    recommendations,
    routes: { social: socialRoutes({ social, plays, recommendations }) },
    accountData: {
      export: async (owner) => ({ ...(await social.exportFor(owner)), ...(await plays.exportFor(owner)) }),
      erase: async (owner) => ({ ...(await social.eraseFor(owner)), ...(await plays.eraseFor(owner)) }),
    },
  };
}

import './subsonic.events.js';
import rootPackage from '../../../../package.json' with { type: 'json' };
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import { TranscodeSlots } from '../../platform/media/live-transcode.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { PlaysService } from '../social/plays.service.js';
import type { SocialService } from '../social/social.service.js';
import type { TrackSearchService } from '../tracks/track-search.service.js';
import type { TrackAudio } from '../tracks/track-audio.js';
import type { FollowsService } from '../users/follows.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { AppPasswordsRepository } from './app-passwords.repository.js';
import { appPasswordsRoutes } from './app-passwords.routes.js';
import { AppPasswordsService } from './app-passwords.service.js';
import { annotationMethods } from './methods/annotation.methods.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { listMethods } from './methods/lists.methods.js';
import { searchingMethods } from './methods/searching.methods.js';
import { streamMethods } from './methods/stream.methods.js';
import { systemMethods } from './methods/system.methods.js';
import { userMethods } from './methods/users.methods.js';
import { SubsonicAuthenticator } from './rest-auth.js';
import { SubsonicAnnotations } from './subsonic-annotations.js';
import { SubsonicAnnotationsRepository } from './subsonic-annotations.repository.js';
import { SubsonicCatalogue } from './subsonic-catalogue.js';
import { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import { MethodRegistry } from './rest-methods.js';
import { SubsonicRest } from './subsonic-rest.js';
import { subsonicRouter } from './subsonic.routes.js';

/** How long a transcode waits for a free slot before it is refused as "server busy". */
const TRANSCODE_WAIT_MS = 2_000;

export type SubsonicModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { appPasswords: AppPasswordsService; auth: SubsonicAuthenticator; rest: SubsonicRest };
};

/**
 * The Subsonic-compatible interface (/rest/, for player apps) and the app passwords its users sign
 * in with. It reads the catalogue, likes, plays and playlists through the other areas' ports, and
 * changes likes, plays and follows through their services; its own tables are app_passwords,
 * subsonic_ratings (Riff has no ratings) and subsonic_now_playing.
 */
export function createSubsonicModule(
  platform: Platform,
  deps: {
    /** The developer area's verifier of `riff_` keys (OpenSubsonic's apiKey). */
    apiKeys: ApiKeyVerifier;
    people: Pick<PeopleReader, 'lockAccount' | 'findActingByUsername' | 'blockedEitherWay' | 'names'>;
    /** The tracks area's search (search3's songs). */
    tracks: Pick<TrackSearchService, 'matchingIds'>;
    /** The tracks area's audio (stream, download). */
    audio: TrackAudio;
    /** The social area's likes (star, unstar). */
    social: Pick<SocialService, 'like' | 'unlike'>;
    /** The social area's plays (scrobble). */
    plays: Pick<PlaysService, 'play'>;
    /** The users area's follows (star and unstar of an artist). */
    follows: Pick<FollowsService, 'follow' | 'unfollow'>;
  },
): SubsonicModule {
  const { scope, events, clock, keys, limits, keyLimits, logger, config } = platform;
  const appPasswords = new AppPasswordsService({
    scope,
    passwords: new AppPasswordsRepository(scope),
    box: keys.secretBox('app-password'),
    events,
    clock,
    people: deps.people,
  });
  const auth = new SubsonicAuthenticator({
    keys: deps.apiKeys,
    keyLimits,
    accounts: deps.people,
    passwords: appPasswords,
    failures: policyLimiter(limits, 'subsonic-sign-in'),
  });
  const library = new SubsonicCatalogueRepository(scope);
  const catalogue = new SubsonicCatalogue({
    repository: library,
    names: (ids) => deps.people.names(ids),
    searchTracks: (actor, q, page) => deps.tracks.matchingIds(actor, q, page),
  });
  const annotationRows = new SubsonicAnnotationsRepository(scope);
  const annotations = new SubsonicAnnotations({
    catalogue,
    library,
    annotations: annotationRows,
    names: (ids) => deps.people.names(ids),
    social: deps.social,
    plays: deps.plays,
    follows: deps.follows,
    clock,
  });
  const stream = streamMethods({
    audio: deps.audio,
    blockedEitherWay: (a, b) => deps.people.blockedEitherWay(a, b),
    ffmpegPath: config.ffmpegPath,
    // one more waits this long for a slot (a player skipping ahead ends one transcode as it starts the next)
    slots: new TranscodeSlots(config.media.transcodeConcurrency, TRANSCODE_WAIT_MS),
    logger,
  });
  const methods = new MethodRegistry([
    systemMethods(),
    browsingMethods(catalogue, (userId, ids) => annotationRows.ratingsOf(userId, ids)),
    listMethods(catalogue),
    searchingMethods(catalogue),
    userMethods(),
    stream,
    annotationMethods(annotations),
  ]);
  const rest = new SubsonicRest({ methods, auth, serverVersion: rootPackage.version, logger });
  return {
    name: 'subsonic',
    services: { appPasswords, auth, rest },
    routes: { subsonic: appPasswordsRoutes(appPasswords) },
    routers: [subsonicRouter(rest)],
    accountData: {
      export: async (owner) => ({ ...(await appPasswords.exportFor(owner)), ...(await annotations.exportFor(owner)) }),
      erase: async (owner) => ({ ...(await appPasswords.eraseFor(owner)), ...(await annotations.eraseFor(owner)) }),
    },
  };
}

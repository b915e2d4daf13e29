import './subsonic.events.js';
import rootPackage from '../../../../package.json' with { type: 'json' };
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { TrackSearchService } from '../tracks/track-search.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { AppPasswordsRepository } from './app-passwords.repository.js';
import { appPasswordsRoutes } from './app-passwords.routes.js';
import { AppPasswordsService } from './app-passwords.service.js';
import { browsingMethods } from './methods/browsing.methods.js';
import { listMethods } from './methods/lists.methods.js';
import { searchingMethods } from './methods/searching.methods.js';
import { systemMethods } from './methods/system.methods.js';
import { userMethods } from './methods/users.methods.js';
import { SubsonicAuthenticator } from './rest-auth.js';
import { SubsonicCatalogue } from './subsonic-catalogue.js';
import { SubsonicCatalogueRepository } from './subsonic-catalogue.repository.js';
import { MethodRegistry } from './rest-methods.js';
import { SubsonicRest } from './subsonic-rest.js';
import { subsonicRouter } from './subsonic.routes.js';

export type SubsonicModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { appPasswords: AppPasswordsService; auth: SubsonicAuthenticator; rest: SubsonicRest };
};

/**
 * The Subsonic-compatible interface (/rest/, for player apps) and the app passwords its users sign
 * in with. It reads the catalogue, likes, plays and playlists through the other areas' ports; its
 * own table is app_passwords.
 */
export function createSubsonicModule(
  platform: Platform,
  deps: {
    /** The developer area's verifier of `riff_` keys (OpenSubsonic's apiKey). */
    apiKeys: ApiKeyVerifier;
    people: Pick<PeopleReader, 'lockAccount' | 'findActingByUsername' | 'names'>;
    /** The tracks area's search (search3's songs). */
    tracks: Pick<TrackSearchService, 'matchingIds'>;
  },
): SubsonicModule {
  const { scope, events, clock, keys, limits, keyLimits, logger } = platform;
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
  const catalogue = new SubsonicCatalogue({
    repository: new SubsonicCatalogueRepository(scope),
    names: (ids) => deps.people.names(ids),
    searchTracks: (actor, q, page) => deps.tracks.matchingIds(actor, q, page),
  });
  const methods = new MethodRegistry([
    systemMethods(),
    browsingMethods(catalogue),
    listMethods(catalogue),
    searchingMethods(catalogue),
    userMethods(),
  ]);
  const rest = new SubsonicRest({ methods, auth, serverVersion: rootPackage.version, logger });
  return {
    name: 'subsonic',
    services: { appPasswords, auth, rest },
    routes: { subsonic: appPasswordsRoutes(appPasswords) },
    routers: [subsonicRouter(rest)],
    accountData: {
      export: (owner) => appPasswords.exportFor(owner),
      erase: (owner) => appPasswords.eraseFor(owner),
    },
  };
}

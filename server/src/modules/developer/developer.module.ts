import './api-keys.events.js';
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { UserRow } from '../users/users.tables.js';
import { developerKeyVerifier } from './api-key-verifier.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { apiKeysRoutes } from './api-keys.routes.js';
import { ApiKeysService } from './api-keys.service.js';

export type DeveloperModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { apiKeys: ApiKeysService };
  /** The verifier of `riff_` keys, for an interface outside the contract that takes them too (Subsonic's apiKey). */
  keyVerifier: ApiKeyVerifier;
};

/** Developer API keys: managed with a bearer token, used in its place on the routes that allow it. */
export function createDeveloperModule(
  platform: Platform,
  deps: { activeUser(id: string): Promise<UserRow | undefined>; people: Pick<PeopleReader, 'lockAccount'> },
): DeveloperModule {
  const keys = new ApiKeysRepository(platform.scope);
  const service = new ApiKeysService({
    scope: platform.scope,
    keys,
    events: platform.events,
    clock: platform.clock,
    revocations: platform.revocations,
    people: deps.people,
  });
  const keyVerifier = developerKeyVerifier({ keys, clock: platform.clock, activeUser: deps.activeUser });
  return {
    name: 'developer',
    services: { apiKeys: service },
    routes: { developer: apiKeysRoutes(service) },
    keyVerifier,
    keyVerifiers: [keyVerifier],
    accountData: { export: (owner) => service.exportFor(owner) },
  };
}

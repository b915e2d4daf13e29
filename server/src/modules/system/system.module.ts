import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { systemRoutes } from './system.routes.js';

/** Health, readiness and the token-verification keys. */
export function createSystemModule(platform: Platform): RiffModule {
  return {
    name: 'system',
    routes: { system: systemRoutes({ ping: platform.database.ping, signer: platform.signer }) },
  };
}

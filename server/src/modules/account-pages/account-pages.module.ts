import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { accountPagesRouter } from './account-pages.routes.js';

/** The built-in verify-email and reset-password pages, served unless APP_BASE_URL names a frontend. */
export function createAccountPagesModule(platform: Platform): RiffModule {
  return { name: 'account-pages', routers: platform.config.serveAccountPages ? [accountPagesRouter()] : [] };
}

import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { DashboardRepository } from './dashboard.repository.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { DashboardService } from './dashboard.service.js';

/** The caller's dashboard: a read-only view over the other areas' tables. */
export function createDashboardModule(platform: Platform): RiffModule {
  const service = new DashboardService({ dashboard: new DashboardRepository(platform.scope), clock: platform.clock });
  return { name: 'dashboard', routes: { dashboard: dashboardRoutes(service) } };
}

import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { DashboardService } from './dashboard.service.js';

export function dashboardRoutes(dashboard: DashboardService) {
  return contractRoutes(contract.dashboard, {
    get: async ({ query, req }) => ({ status: 200, body: ok(await dashboard.forCaller(signedInActor(req), query)) }),
  });
}

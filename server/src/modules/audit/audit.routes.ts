import { contractRoutes } from '../../platform/http/contract-routes.js';
import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { ok } from '../../platform/http/envelope.js';
import type { AuditService } from './audit.service.js';

export function auditRoutes(audit: AuditService) {
  return contractRoutes(contract.audit, {
    activity: async ({ query, req }) => ({
      status: 200,
      body: ok(await audit.activity(signedInActor(req), query.limit)),
    }),
    logs: async ({ query, req }) => ({ status: 200, body: ok(await audit.logs(signedInActor(req), query)) }),
    stats: async ({ query, req }) => ({ status: 200, body: ok(await audit.stats(signedInActor(req), query)) }),
  });
}

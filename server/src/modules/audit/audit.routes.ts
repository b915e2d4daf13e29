import { initServer } from '@ts-rest/express';
import { ok } from '../../platform/http/envelope.js';
import { contract } from '@riff/contract';
import { principalOf } from '../../platform/auth/authenticate.middleware.js';
import type { AuditService } from './audit.service.js';

const s = initServer();

export function auditRoutes(audit: AuditService) {
  return s.router(contract.audit, {
    activity: async ({ query, req }) => ({ status: 200, body: ok(await audit.activity(principalOf(req).user, query.limit)) }),
    logs: async ({ query, req }) => ({ status: 200, body: ok(await audit.logs(principalOf(req).user, query)) }),
    stats: async ({ query, req }) => ({ status: 200, body: ok(await audit.stats(principalOf(req).user, query)) }),
  });
}

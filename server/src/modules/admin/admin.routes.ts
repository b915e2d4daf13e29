import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { AdminService } from './admin.service.js';

export function adminRoutes(admin: AdminService) {
  return contractRoutes(contract.admin, {
    getSettings: async ({ req }) => ({ status: 200, body: ok(await admin.getSettings(signedInActor(req))) }),
    updateSettings: async ({ body, req }) => ({
      status: 200,
      body: ok(await admin.updateSettings(signedInActor(req), body)),
    }),
    announcement: async () => ({ status: 200, body: ok(await admin.announcement()) }),
    listUsers: async ({ query, req }) => ({ status: 200, body: ok(await admin.listUsers(signedInActor(req), query)) }),
    getUser: async ({ params, req }) => ({ status: 200, body: ok(await admin.getUser(signedInActor(req), params.id)) }),
    setRole: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await admin.setRole(signedInActor(req), params.id, body)),
    }),
    verifyEmail: async ({ params, req }) => ({
      status: 200,
      body: ok(await admin.verifyEmail(signedInActor(req), params.id)),
    }),
    setQuota: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await admin.setQuota(signedInActor(req), params.id, body)),
    }),
    revokeSessions: async ({ params, req }) => ({
      status: 200,
      body: ok(await admin.revokeSessions(signedInActor(req), params.id)),
    }),
    announce: async ({ body, req }) => ({ status: 202, body: ok(await admin.announce(signedInActor(req), body)) }),
    stats: async ({ query, req }) => ({ status: 200, body: ok(await admin.stats(signedInActor(req), query.period)) }),
    audit: async ({ query, req }) => ({ status: 200, body: ok(await admin.audit(signedInActor(req), query)) }),
  });
}

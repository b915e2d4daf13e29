import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { SanctionsService } from './sanctions.service.js';

export function sanctionsRoutes(sanctions: SanctionsService) {
  return contractRoutes(contract.sanctions, {
    warn: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ sanction: await sanctions.warn(signedInActor(req), params.id, body.reason) }),
    }),
    suspend: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ sanction: await sanctions.suspend(signedInActor(req), params.id, body) }),
    }),
    unsuspend: async ({ params, req }) => ({
      status: 200,
      body: ok({ sanction: await sanctions.unsuspend(signedInActor(req), params.id) }),
    }),
    ban: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ sanction: await sanctions.ban(signedInActor(req), params.id, body.reason) }),
    }),
    unban: async ({ params, req }) => ({
      status: 200,
      body: ok({ sanction: await sanctions.unban(signedInActor(req), params.id) }),
    }),
  });
}

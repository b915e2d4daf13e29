import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { ApiKeysService } from './api-keys.service.js';

export function apiKeysRoutes(keys: ApiKeysService) {
  return contractRoutes(contract.developer, {
    listApiKeys: async ({ req }) => ({ status: 200, body: ok(await keys.list(signedInActor(req))) }),
    createApiKey: async ({ body, req }) => ({ status: 201, body: ok(await keys.create(signedInActor(req), body)) }),
    revokeApiKey: async ({ params, req }) => ({
      status: 200,
      body: ok(await keys.revoke(signedInActor(req), params.id)),
    }),
  });
}

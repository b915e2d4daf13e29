import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { CopyrightService } from './copyright.service.js';

export function copyrightRoutes(service: CopyrightService) {
  return contractRoutes(contract.copyright, {
    claim: async ({ body, req }) => ({ status: 201, body: ok(await service.claim(signedInActor(req), body)) }),
    counter: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await service.counter(signedInActor(req), params.id, body)),
    }),
    myClaims: async ({ req }) => ({ status: 200, body: ok(await service.mine(signedInActor(req))) }),
    staffClaims: async ({ query, req }) => ({ status: 200, body: ok(await service.list(signedInActor(req), query)) }),
    decide: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await service.decide(signedInActor(req), params.id, body)),
    }),
  });
}

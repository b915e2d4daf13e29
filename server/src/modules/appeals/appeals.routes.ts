import { contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { AppealsService } from './appeals.service.js';

export function appealsRoutes(service: AppealsService) {
  return contractRoutes(contract.appeals, {
    standing: async ({ req }) => ({ status: 200, body: ok(await service.standing(signedInActor(req))) }),
    create: async ({ body, req }) => ({ status: 201, body: ok(await service.create(signedInActor(req), body)) }),
    createByToken: async ({ body, req }) => ({
      status: 201,
      body: ok(await service.createByToken(actorOf(req), body)),
    }),
    mine: async ({ query, req }) => ({ status: 200, body: ok(await service.mine(signedInActor(req), query)) }),
    queue: async ({ query, req }) => ({ status: 200, body: ok(await service.queue(signedInActor(req), query)) }),
    decide: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await service.decide(signedInActor(req), params.id, body)),
    }),
  });
}

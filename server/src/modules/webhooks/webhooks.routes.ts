import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { WebhooksService } from './webhooks.service.js';

export function webhooksRoutes(webhooks: WebhooksService) {
  return contractRoutes(contract.webhooks, {
    list: async ({ req }) => ({ status: 200, body: ok(await webhooks.list(signedInActor(req))) }),
    create: async ({ body, req }) => ({ status: 201, body: ok(await webhooks.create(signedInActor(req), body)) }),
    stats: async ({ req }) => ({ status: 200, body: ok(await webhooks.stats(signedInActor(req))) }),
    get: async ({ params, req }) => ({ status: 200, body: ok(await webhooks.get(signedInActor(req), params.id)) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await webhooks.update(signedInActor(req), params.id, body)),
    }),
    remove: async ({ params, req }) => ({
      status: 200,
      body: ok(await webhooks.remove(signedInActor(req), params.id)),
    }),
    regenerateKey: async ({ params, req }) => ({
      status: 200,
      body: ok(await webhooks.regenerateKey(signedInActor(req), params.id)),
    }),
    rotateSecret: async ({ params, req }) => ({
      status: 200,
      body: ok(await webhooks.rotateSecret(signedInActor(req), params.id)),
    }),
    deliveries: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await webhooks.deliveries(signedInActor(req), params.id, query)),
    }),
    redeliver: async ({ params, req }) => ({
      status: 202,
      body: ok(await webhooks.redeliver(signedInActor(req), params.id, params.deliveryId)),
    }),
    test: async ({ params, req }) => ({ status: 200, body: ok(await webhooks.test(signedInActor(req), params.id)) }),
  });
}

import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoute } from '../../platform/http/contract-routes.js';
import type { PromoCodesService } from './promo-codes.service.js';

const routes = contract.marketplace;

/** The promo-codes part of contract.marketplace: replies are the objects themselves, not enveloped. */
export function promoCodeRoutes(service: PromoCodesService) {
  return {
    createPromoCode: contractRoute(routes.createPromoCode, async ({ body, req }) => ({
      status: 201,
      body: await service.create(signedInActor(req), body),
    })),
    listPromoCodes: contractRoute(routes.listPromoCodes, async ({ req }) => ({
      status: 200,
      body: await service.list(signedInActor(req)),
    })),
    removePromoCode: contractRoute(routes.removePromoCode, async ({ params, req }) => {
      await service.remove(signedInActor(req), params.id);
      return { status: 204, body: undefined };
    }),
  };
}

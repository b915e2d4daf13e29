import { initContract } from '@ts-rest/core';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { userRoute } from '../../common/route-meta.js';
import { CreatePromoCodeRequestSchema, PromoCodeListSchema, PromoCodeSchema } from './promo-codes.schemas.js';

const c = initContract();

/** Promo codes of a seller. Replies are not enveloped. */
export const promoCodesContract = c.router({
  createPromoCode: {
    method: 'POST',
    path: '/marketplace/promo-codes',
    summary: 'Create a promo code',
    description:
      'The caller is the seller. Exactly one of percent_off (1–100, per eligible item, rounded half up to the cent) and amount_off_cents ' +
      '(with currency, default USD: split over the eligible items in proportion to their prices, never more than they cost). ' +
      'The code applies to the seller’s items of an order (to product_ids when given: the caller’s own products, 400 otherwise). ' +
      'code is unique per seller without regard to case: 409 CONFLICT. expires_at must be in the future. ' +
      'Reply: the PromoCode itself, not enveloped.',
    metadata: userRoute,
    body: CreatePromoCodeRequestSchema,
    responses: { 201: PromoCodeSchema, ...errors(400, 401, 409, 413, 415) },
  },
  listPromoCodes: {
    method: 'GET',
    path: '/marketplace/promo-codes',
    summary: 'The caller’s promo codes',
    description:
      'Every promo code of the caller, newest first, as a plain array (not enveloped, not paginated), expired and used-up ones included.',
    metadata: userRoute,
    responses: { 200: PromoCodeListSchema, ...errors(401) },
  },
  removePromoCode: {
    method: 'DELETE',
    path: '/marketplace/promo-codes/:id',
    summary: 'Delete a promo code',
    description:
      'The seller only; anyone else’s code is 404. Orders that used it keep their discount (their promo_code_id becomes null). Answers 204 without a body.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 204: c.noBody(), ...errors(400, 401, 404) },
  },
});

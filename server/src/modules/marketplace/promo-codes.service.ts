import type { CreatePromoCodeRequest, PromoCode } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db/db-errors.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { conflict, invalidField, notFound } from '../../platform/errors/app-error.js';
import { toPromoCodeDto } from './promo-codes.mapper.js';
import { canManagePromoCode } from './promo-codes.policy.js';
import { promoCodeKey, type PromoCodesRepository } from './promo-codes.repository.js';

export interface PromoCodesServiceDeps {
  scope: DbScope;
  promoCodes: PromoCodesRepository;
  clock: Clock;
}

/** A seller's promo codes: create, list, delete. What a code takes off an order is order-pricing.ts. */
export class PromoCodesService {
  constructor(private readonly deps: PromoCodesServiceDeps) {}

  async create(actor: UserActor, body: CreatePromoCodeRequest): Promise<PromoCode> {
    const { scope, promoCodes, clock } = this.deps;
    const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
    if (expiresAt !== null && expiresAt.getTime() <= clock.now().getTime())
      throw invalidField('expires_at', 'must be in the future', body.expires_at);
    const productIds = [...new Set(body.product_ids ?? [])];
    const amountOff = body.amount_off_cents ?? null;
    try {
      const row = await scope.transaction(async () => {
        const own = await promoCodes.productsOfSeller(actor.id, productIds);
        const foreign = productIds.find((id) => !own.has(id));
        if (foreign !== undefined) throw invalidField('product_ids', 'must be products of your own', foreign);
        return promoCodes.insert(
          {
            seller_id: actor.id,
            code: body.code,
            code_key: promoCodeKey(body.code),
            percent_off: body.percent_off ?? null,
            amount_off_cents: amountOff,
            currency: amountOff === null ? null : (body.currency ?? 'USD'),
            max_redemptions: body.max_redemptions ?? null,
            expires_at: expiresAt,
          },
          productIds,
        );
      });
      return toPromoCodeDto(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('You already have a promo code with this code');
      throw error;
    }
  }

  async list(actor: UserActor): Promise<PromoCode[]> {
    return (await this.deps.promoCodes.listOfSeller(actor.id)).map(toPromoCodeDto);
  }

  async remove(actor: UserActor, id: string): Promise<void> {
    const { scope, promoCodes } = this.deps;
    await scope.transaction(async () => {
      const code = await promoCodes.find(id);
      if (!code || !canManagePromoCode(actor, code)) throw notFound('Promo code');
      await promoCodes.remove(id);
    });
  }
}

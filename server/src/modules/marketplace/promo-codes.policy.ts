import type { Actor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { PromoCodeRow } from './promo-codes.repository.js';

/** A promo code is its seller's alone: others (admins included) do not see it, so it is 404 to them. */
export function canManagePromoCode(actor: Actor, code: Pick<PromoCodeRow, 'seller_id'>): boolean {
  return isOwner(actor, code.seller_id);
}

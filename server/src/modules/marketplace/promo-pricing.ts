import { AppError } from '../../platform/errors/app-error.js';

/** What pricing reads of a promo code (a PromoCodeRow fits). */
export interface PricedPromoCode {
  id: string;
  seller_id: string;
  percent_off: number | null;
  amount_off_cents: number | null;
  currency: string | null;
  /** Empty: every product of the seller. */
  product_ids: readonly string[];
  max_redemptions: number | null;
  redemption_count: number;
  expires_at: Date | null;
}

/** An order item as priced: integer cents in its currency (ISO 4217, upper case). */
export interface PricedItem {
  seller_id: string | null;
  product_id: string;
  price_cents: number;
  currency: string;
}

export interface PromoDiscount {
  promoCodeId: string;
  /** Integer cents off each item, in the items' order; 0 for an item the code does not apply to. */
  perItem: number[];
  /** The sum of perItem. */
  totalCents: number;
}

const invalidPromo = (message: string) => new AppError('INVALID_PROMO_CODE', message);

/** Whether a code can be used now at all (ADDENDUM: an expired or used-up code is 400 INVALID_PROMO_CODE). */
export function assertPromoUsable(promo: PricedPromoCode, now: Date): void {
  if (promo.expires_at !== null && promo.expires_at.getTime() <= now.getTime()) throw invalidPromo('This promo code has expired');
  if (promo.max_redemptions !== null && promo.redemption_count >= promo.max_redemptions) throw invalidPromo('This promo code has been used up');
}

/** price × percent / 100, rounded half up, in integers only. */
function percentOf(priceCents: bigint, percent: bigint): bigint {
  return (priceCents * percent + 50n) / 100n;
}

/**
 * Splits `amount` over the prices in proportion (floored), then puts what the floors left over on the
 * last item, moving backwards to earlier ones only where an item would otherwise cost less than 0.
 * Requires amount ≤ the sum of the prices.
 */
function splitProportionally(amount: bigint, prices: readonly bigint[]): bigint[] {
  const total = prices.reduce((sum, price) => sum + price, 0n);
  if (total === 0n || amount === 0n) return prices.map(() => 0n);
  const shares = prices.map((price) => (amount * price) / total);
  let remainder = amount - shares.reduce((sum, share) => sum + share, 0n);
  for (let index = prices.length - 1; index >= 0 && remainder > 0n; index--) {
    const room = prices[index]! - shares[index]!;
    const taken = room < remainder ? room : remainder;
    shares[index] = shares[index]! + taken;
    remainder -= taken;
  }
  return shares;
}

/**
 * What a promo code takes off an order's items (ADDENDUM Part 2 "Marketplace"): only the code's
 * seller's items, and of those only its products when it names any. percent_off: per item, rounded
 * half up to the cent. amount_off_cents: items in the code's currency only, the amount capped at their
 * total and split in proportion to their prices (remainder on the last). Integer cents throughout;
 * no item ever costs less than 0. A code that is expired, used up, or applies to no item of the order
 * is INVALID_PROMO_CODE.
 */
export function applyPromoCode(promo: PricedPromoCode, items: readonly PricedItem[], now: Date): PromoDiscount {
  assertPromoUsable(promo, now);
  const limitedTo = promo.product_ids.length > 0 ? new Set(promo.product_ids) : null;
  const ofSeller = (item: PricedItem) => item.seller_id === promo.seller_id && (limitedTo === null || limitedTo.has(item.product_id));
  if (!items.some(ofSeller)) throw invalidPromo('This promo code does not apply to the items of this order');
  for (const item of items) {
    if (!Number.isSafeInteger(item.price_cents) || item.price_cents < 0) throw new RangeError(`price_cents must be a non-negative integer: ${item.price_cents}`);
  }

  const perItem = items.map(() => 0n);
  if (promo.percent_off !== null) {
    const percent = BigInt(promo.percent_off);
    items.forEach((item, index) => {
      if (ofSeller(item)) perItem[index] = percentOf(BigInt(item.price_cents), percent);
    });
  } else if (promo.amount_off_cents !== null) {
    const eligible = items.map((item, index) => ({ item, index })).filter(({ item }) => ofSeller(item) && item.currency === promo.currency);
    if (eligible.length === 0) throw invalidPromo(`This promo code takes ${promo.currency ?? ''} off and the order has no eligible item in that currency`);
    const prices = eligible.map(({ item }) => BigInt(item.price_cents));
    const eligibleTotal = prices.reduce((sum, price) => sum + price, 0n);
    const amount = BigInt(promo.amount_off_cents) < eligibleTotal ? BigInt(promo.amount_off_cents) : eligibleTotal;
    splitProportionally(amount, prices).forEach((share, position) => {
      perItem[eligible[position]!.index] = share;
    });
  }
  const result = perItem.map(Number);
  return { promoCodeId: promo.id, perItem: result, totalCents: result.reduce((sum, cents) => sum + cents, 0) };
}

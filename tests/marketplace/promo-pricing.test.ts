/**
 * What a promo code takes off an order (server/src/modules/marketplace/promo-pricing.ts): pure
 * integer-cent arithmetic, checked by examples and by properties over random orders.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../server/src/platform/errors/app-error.js';
import { applyPromoCode, type PricedItem, type PricedPromoCode } from '../../server/src/modules/marketplace/promo-pricing.js';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const SELLER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

const promo = (fields: Partial<PricedPromoCode>): PricedPromoCode => ({
  id: '33333333-3333-4333-8333-333333333333',
  seller_id: SELLER,
  percent_off: null,
  amount_off_cents: null,
  currency: null,
  product_ids: [],
  max_redemptions: null,
  redemption_count: 0,
  expires_at: null,
  ...fields,
});

let productNumber = 0;
const item = (price_cents: number, fields: Partial<PricedItem> = {}): PricedItem => ({
  seller_id: SELLER,
  product_id: `00000000-0000-4000-8000-${String(++productNumber).padStart(12, '0')}`,
  price_cents,
  currency: 'USD',
  ...fields,
});

function invalidCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('INVALID_PROMO_CODE');
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected INVALID_PROMO_CODE');
}

describe('percent_off', () => {
  it('takes the percentage off each of the seller’s items, rounded half up to the cent', () => {
    // 10 % of 1999 = 199.9 → 200; 10 % of 1995 = 199.5 → 200; 10 % of 1994 = 199.4 → 199; other seller untouched
    const items = [item(1999), item(1995), item(1994), item(5000, { seller_id: OTHER })];
    expect(applyPromoCode(promo({ percent_off: 10 }), items, NOW)).toEqual({
      promoCodeId: '33333333-3333-4333-8333-333333333333',
      perItem: [200, 200, 199, 0],
      totalCents: 599,
    });
    // 15 % of 1 cent is 0.15 → 0; 50 % of 1 cent is 0.5 → 1; 100 % is the whole price
    expect(applyPromoCode(promo({ percent_off: 15 }), [item(1)], NOW).perItem).toEqual([0]);
    expect(applyPromoCode(promo({ percent_off: 50 }), [item(1)], NOW).perItem).toEqual([1]);
    expect(applyPromoCode(promo({ percent_off: 100 }), [item(1999), item(0)], NOW).perItem).toEqual([1999, 0]);
  });

  it('with product_ids, only those products; a percentage applies whatever the currency', () => {
    const chosen = item(1000, { currency: 'EUR' });
    const items = [item(1000), chosen];
    expect(applyPromoCode(promo({ percent_off: 25, product_ids: [chosen.product_id] }), items, NOW).perItem).toEqual([0, 250]);
  });
});

describe('amount_off_cents', () => {
  it('is split over the eligible items in proportion to their prices, the remainder on the last', () => {
    // 1000 over 1000/2000/3000 (total 6000): 166.67, 333.33, 500 → 166, 333, then 501 on the last
    const items = [item(1000), item(2000), item(3000)];
    expect(applyPromoCode(promo({ amount_off_cents: 1000, currency: 'USD' }), items, NOW)).toMatchObject({ perItem: [166, 333, 501], totalCents: 1000 });
    // the ADDENDUM's example: 19.99 with a 200-cent discount totals 17.99
    const single = applyPromoCode(promo({ amount_off_cents: 200, currency: 'USD' }), [item(1999)], NOW);
    expect(1999 - single.totalCents).toBe(1799);
  });

  it('is capped at the eligible total: nothing costs less than 0', () => {
    const items = [item(300), item(200), item(999, { seller_id: OTHER })];
    expect(applyPromoCode(promo({ amount_off_cents: 10_000, currency: 'USD' }), items, NOW)).toMatchObject({ perItem: [300, 200, 0], totalCents: 500 });
    // a remainder the last item cannot take moves to the ones before it
    const cheapLast = [item(1), item(1), item(1), item(0)];
    const split = applyPromoCode(promo({ amount_off_cents: 2, currency: 'USD' }), cheapLast, NOW);
    expect(split.totalCents).toBe(2);
    split.perItem.forEach((cents, index) => expect(cents).toBeLessThanOrEqual(cheapLast[index]!.price_cents));
  });

  it('applies only to items in its currency; none in it is INVALID_PROMO_CODE', () => {
    const items = [item(1000, { currency: 'EUR' }), item(1000)];
    expect(applyPromoCode(promo({ amount_off_cents: 500, currency: 'USD' }), items, NOW).perItem).toEqual([0, 500]);
    invalidCode(() => applyPromoCode(promo({ amount_off_cents: 500, currency: 'GBP' }), items, NOW));
  });
});

describe('validity', () => {
  it('an expired, used-up or other seller’s code is INVALID_PROMO_CODE', () => {
    const items = [item(1000)];
    expect(invalidCode(() => applyPromoCode(promo({ percent_off: 10, expires_at: new Date(NOW.getTime() - 1) }), items, NOW))).toMatch(/expired/);
    // expiring exactly now counts as expired
    invalidCode(() => applyPromoCode(promo({ percent_off: 10, expires_at: NOW }), items, NOW));
    expect(applyPromoCode(promo({ percent_off: 10, expires_at: new Date(NOW.getTime() + 1) }), items, NOW).totalCents).toBe(100);
    expect(invalidCode(() => applyPromoCode(promo({ percent_off: 10, max_redemptions: 3, redemption_count: 3 }), items, NOW))).toMatch(/used up/);
    expect(applyPromoCode(promo({ percent_off: 10, max_redemptions: 3, redemption_count: 2 }), items, NOW).totalCents).toBe(100);
    invalidCode(() => applyPromoCode(promo({ percent_off: 10 }), [item(1000, { seller_id: OTHER })], NOW));
    // limited to products that are not in the order
    invalidCode(() => applyPromoCode(promo({ percent_off: 10, product_ids: ['44444444-4444-4444-8444-444444444444'] }), items, NOW));
  });
});

const currencies = fc.constantFrom('USD', 'EUR');
const itemArb = fc.record({
  seller_id: fc.constantFrom(SELLER, OTHER),
  product_id: fc.constantFrom('a', 'b', 'c', 'd', 'e').map((letter) => `00000000-0000-4000-8000-00000000000${letter}`),
  price_cents: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100_000_000 })),
  currency: currencies,
});
const promoArb = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map((percent_off) => ({ percent_off, amount_off_cents: null, currency: null })),
  fc.record({ percent_off: fc.constant(null), amount_off_cents: fc.integer({ min: 1, max: 100_000_000 }), currency: currencies }),
);
const productIdsArb = fc.subarray(['a', 'b', 'c'].map((letter) => `00000000-0000-4000-8000-00000000000${letter}`));

describe('properties', () => {
  const run = (check: (code: PricedPromoCode, items: PricedItem[]) => void) =>
    fc.assert(
      fc.property(promoArb, productIdsArb, fc.array(itemArb, { minLength: 1, maxLength: 8 }), (discount, productIds, items) => {
        const code = promo({ ...discount, product_ids: productIds });
        let eligible: boolean;
        try {
          applyPromoCode(code, items, NOW);
          eligible = true;
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== 'INVALID_PROMO_CODE') throw error;
          eligible = false;
        }
        if (eligible) check(code, items);
      }),
      { numRuns: 2000 },
    );
  const eligibleFor = (code: PricedPromoCode, entry: PricedItem) =>
    entry.seller_id === code.seller_id &&
    (code.product_ids.length === 0 || code.product_ids.includes(entry.product_id)) &&
    (code.amount_off_cents === null || entry.currency === code.currency);

  it('a discount is a whole number of cents, never negative, never more than the item’s price', () => {
    run((code, items) => {
      const { perItem, totalCents } = applyPromoCode(code, items, NOW);
      expect(perItem).toHaveLength(items.length);
      perItem.forEach((cents, index) => {
        expect(Number.isSafeInteger(cents)).toBe(true);
        expect(cents).toBeGreaterThanOrEqual(0);
        expect(cents).toBeLessThanOrEqual(items[index]!.price_cents);
        if (!eligibleFor(code, items[index]!)) expect(cents).toBe(0);
      });
      expect(totalCents).toBe(perItem.reduce((sum, cents) => sum + cents, 0));
    });
  });

  it('amount_off: the discounts add up to the amount, capped at the eligible total', () => {
    run((code, items) => {
      if (code.amount_off_cents === null) return;
      const eligibleTotal = items.filter((entry) => eligibleFor(code, entry)).reduce((sum, entry) => sum + entry.price_cents, 0);
      expect(applyPromoCode(code, items, NOW).totalCents).toBe(Math.min(code.amount_off_cents, eligibleTotal));
    });
  });

  it('percent_off: each eligible item’s discount is its price × percent / 100 rounded half up, computed exactly', () => {
    run((code, items) => {
      if (code.percent_off === null) return;
      const { perItem } = applyPromoCode(code, items, NOW);
      items.forEach((entry, index) => {
        if (!eligibleFor(code, entry)) return;
        const exact = BigInt(entry.price_cents) * BigInt(code.percent_off!);
        // d is the rounding half up of exact / 100: 100·d − 50 ≤ exact < 100·d + 50
        const d = BigInt(perItem[index]!);
        expect(100n * d - 50n <= exact && exact < 100n * d + 50n).toBe(true);
      });
    });
  });
});

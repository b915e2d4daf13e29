/**
 * What a promo code takes off an order's lines (server/src/modules/marketplace/order-pricing.ts):
 * integer-cent arithmetic, checked by examples and by properties over random orders.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discountLines, type PricedLine } from '../../server/src/modules/marketplace/order-pricing.js';

let productNumber = 0;
const line = (priceCents: number, eligible = true): PricedLine => ({
  productId: `product-${++productNumber}`,
  priceCents,
  eligible,
});
const percent = (percent_off: number) => ({ percent_off, amount_off_cents: null });
const amount = (amount_off_cents: number) => ({ percent_off: null, amount_off_cents });

describe('percent_off', () => {
  it('is taken off the eligible lines’ total, rounded half up to the cent, and split in proportion', () => {
    // 10 % of 1999 + 1995 + 1994 = 598.8 → 599 (another seller's line untouched)
    const shares = discountLines([line(1999), line(1995), line(1994), line(5000, false)], percent(10));
    expect(shares.reduce((sum, cents) => sum + cents, 0)).toBe(599);
    expect(shares).toEqual([200, 200, 199, 0]);
    // 50 % of 1 cent is 0.5 → 1; 15 % is 0.15 → 0; 100 % is every price
    expect(discountLines([line(1)], percent(50))).toEqual([1]);
    expect(discountLines([line(1)], percent(15))).toEqual([0]);
    expect(discountLines([line(1999), line(0)], percent(100))).toEqual([1999, 0]);
  });

  it('cents left by the split go to the largest fractions, never past a line’s price', () => {
    // 75 % of four 1-cent lines is 3 cents: each line's exact share is 0.75, so three lines get a cent each
    expect(discountLines([line(1), line(1), line(1), line(1)], percent(75))).toEqual([1, 1, 1, 0]);
  });
});

describe('amount_off_cents', () => {
  it('is split in proportion to the prices: the ADDENDUM’s 19.99 less 200 cents is 17.99', () => {
    // 1000 over 1000/2000/3000: 166.67, 333.33, 500 → 167 (largest fraction), 333, 500
    expect(discountLines([line(1000), line(2000), line(3000)], amount(1000))).toEqual([167, 333, 500]);
    expect(1999 - discountLines([line(1999)], amount(200))[0]!).toBe(1799);
  });

  it('is capped at the eligible total: nothing costs less than 0', () => {
    expect(discountLines([line(300), line(200), line(999, false)], amount(10_000))).toEqual([300, 200, 0]);
    expect(discountLines([line(1), line(1), line(1), line(0)], amount(2))).toEqual([1, 1, 0, 0]);
  });
});

const lineArb = fc.record({
  productId: fc.uuid(),
  priceCents: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100_000_000 })),
  eligible: fc.boolean(),
});
const promoArb = fc.oneof(
  fc.integer({ min: 1, max: 100 }).map(percent),
  fc.integer({ min: 1, max: 1_000_000_000 }).map(amount),
);

describe('properties', () => {
  it('each share is whole cents, between 0 and its line’s price (0 off an ineligible line), and they add up to the discount', () => {
    fc.assert(
      fc.property(promoArb, fc.array(lineArb, { minLength: 1, maxLength: 12 }), (promo, lines) => {
        const shares = discountLines(lines, promo);
        const eligibleTotal = lines.reduce((sum, entry) => sum + (entry.eligible ? entry.priceCents : 0), 0);
        const total =
          promo.percent_off !== null
            ? Number((BigInt(eligibleTotal) * BigInt(promo.percent_off) + 50n) / 100n)
            : Math.min(promo.amount_off_cents!, eligibleTotal);
        expect(shares).toHaveLength(lines.length);
        shares.forEach((cents, index) => {
          expect(Number.isSafeInteger(cents)).toBe(true);
          expect(cents).toBeGreaterThanOrEqual(0);
          expect(cents).toBeLessThanOrEqual(lines[index]!.eligible ? lines[index]!.priceCents : 0);
        });
        expect(shares.reduce((sum, cents) => sum + cents, 0)).toBe(total);
        // so an order's total is always the sum of its lines less the discount, in whole cents
        const paid = lines.reduce((sum, entry, index) => sum + entry.priceCents - shares[index]!, 0);
        expect(paid).toBe(lines.reduce((sum, entry) => sum + entry.priceCents, 0) - total);
      }),
      { numRuns: 3000 },
    );
  });

  it('a share differs from its exact proportion by less than a cent', () => {
    fc.assert(
      fc.property(promoArb, fc.array(lineArb, { minLength: 1, maxLength: 12 }), (promo, lines) => {
        const shares = discountLines(lines, promo);
        const eligibleTotal = lines.reduce((sum, entry) => sum + (entry.eligible ? entry.priceCents : 0), 0);
        const total = shares.reduce((sum, cents) => sum + cents, 0);
        if (eligibleTotal === 0) return;
        lines.forEach((entry, index) => {
          if (!entry.eligible) return;
          // |share × eligibleTotal − total × price| < eligibleTotal
          const gap = BigInt(shares[index]!) * BigInt(eligibleTotal) - BigInt(total) * BigInt(entry.priceCents);
          expect(gap < BigInt(eligibleTotal) && gap > -BigInt(eligibleTotal)).toBe(true);
        });
      }),
      { numRuns: 3000 },
    );
  });
});

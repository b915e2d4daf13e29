import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceProduct, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of promo codes, called on the services with an Actor: what a code takes off an order,
// and when it is refused. promo-codes.test.ts holds the routes and replies to the contract.
// the services' clock moves on demand (a code's expiry); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const invalidPromo = { status: 400, code: 'INVALID_PROMO_CODE' };

describe('promo codes (service)', () => {
  it('a percentage is taken off the price (rounded half up), an amount is taken off and capped at the price', async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { price: 19.99 });
    await promoCodes.create(seller, { code: 'QUARTER', percent_off: 25 });
    await promoCodes.create(seller, { code: 'FIVER', amount_off_cents: 500 });
    const quarter = await orders.create(buyer, { items: [{ product_id: product.id }], promo_code: 'QUARTER' });
    // 25% of 1999 is 499.75: 500
    expect(quarter).toMatchObject({ subtotal_cents: 1999, discount_amount_cents: 500, total_cents: 1499 });
    const fiver = await orders.create(buyer, { items: [{ product_id: product.id }], promo_code: 'FIVER' });
    expect(fiver).toMatchObject({ subtotal_cents: 1999, discount_amount_cents: 500, total_cents: 1499 });
    const cheap = await serviceProduct(suite, seller, { title: 'One shot', price: 3 });
    const capped = await orders.create(buyer, { items: [{ product_id: cheap.id }], promo_code: 'FIVER' });
    expect(capped).toMatchObject({ subtotal_cents: 300, discount_amount_cents: 300, total_cents: 0 });
  });

  it('codes are compared without case, and a seller has one code of each spelling', async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { price: 10 });
    const created = await promoCodes.create(seller, { code: 'Summer25', percent_off: 10 });
    expect(created.code).toBe('Summer25');
    const order = await orders.create(buyer, { items: [{ product_id: product.id }], promo_code: ' sUMMER25 ' });
    expect(order).toMatchObject({ promo_code_id: created.id, discount_amount_cents: 100, total_cents: 900 });
    expect(await refusal(promoCodes.create(seller, { code: 'SUMMER25', percent_off: 5 }))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    });
    // another seller may have the same spelling
    const other = await serviceUser(suite);
    expect((await promoCodes.create(other, { code: 'summer25', percent_off: 5 })).code).toBe('summer25');
    expect((await promoCodes.list(seller)).map((code) => code.code)).toEqual(['Summer25']);
  });

  it('an amount off is in one currency: items in another are not eligible, while a percentage applies to any', async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const euros = await serviceProduct(suite, seller, { price: 20, currency: 'EUR' });
    const dollars = await promoCodes.create(seller, { code: 'DOLLARS', amount_off_cents: 500 });
    expect(dollars).toMatchObject({ currency: 'USD', percent_off: null });
    await promoCodes.create(seller, { code: 'TENPC', percent_off: 10 });
    expect(
      await refusal(orders.create(buyer, { items: [{ product_id: euros.id }], promo_code: 'DOLLARS' })),
    ).toMatchObject(invalidPromo);
    expect(await orders.create(buyer, { items: [{ product_id: euros.id }], promo_code: 'TENPC' })).toMatchObject({
      currency: 'EUR',
      discount_amount_cents: 200,
      total_cents: 1800,
    });
    const inEuros = await promoCodes.create(seller, { code: 'EUROS', amount_off_cents: 500, currency: 'EUR' });
    expect(inEuros.currency).toBe('EUR');
    expect(await orders.create(buyer, { items: [{ product_id: euros.id }], promo_code: 'euros' })).toMatchObject({
      total_cents: 1500,
    });
  });

  it('an expiry must be in the future, and an expired code is refused', async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(await refusal(promoCodes.create(seller, { code: 'LATE', percent_off: 10, expires_at: past }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['expires_at'],
    });
    const soon = new Date(Date.now() + 60_000).toISOString();
    await promoCodes.create(seller, { code: 'FLASH', percent_off: 10, expires_at: soon });
    offsetMs = 61_000;
    try {
      expect(
        await refusal(orders.create(buyer, { items: [{ product_id: product.id }], promo_code: 'FLASH' })),
      ).toMatchObject(invalidPromo);
    } finally {
      offsetMs = 0;
    }
  });

  it('a code limited to one redemption is used up while an order holds it', async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const product = await serviceProduct(suite, seller);
    await promoCodes.create(seller, { code: 'ONCE', percent_off: 50, max_redemptions: 1 });
    const first = await serviceUser(suite);
    const second = await serviceUser(suite);
    const held = await orders.create(first, { items: [{ product_id: product.id }], promo_code: 'ONCE' });
    expect(held).toMatchObject({ status: 'pending', discount_amount_cents: 1000 });
    expect(
      await refusal(orders.create(second, { items: [{ product_id: product.id }], promo_code: 'ONCE' })),
    ).toMatchObject(invalidPromo);
  });

  it("a seller's code applies only to their products, and only to those it names", async () => {
    const { promoCodes, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const rival = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const mine = await serviceProduct(suite, seller, { price: 10 });
    const named = await serviceProduct(suite, seller, { title: 'Named one', price: 10 });
    const theirs = await serviceProduct(suite, rival, { price: 10 });
    expect(
      await refusal(promoCodes.create(seller, { code: 'STOLEN', percent_off: 10, product_ids: [theirs.id] })),
    ).toEqual({ status: 400, code: 'VALIDATION_FAILED', fields: ['product_ids'] });
    await promoCodes.create(seller, { code: 'HALF', percent_off: 50 });
    // the rival's product alone: the code is not theirs
    expect(
      await refusal(orders.create(buyer, { items: [{ product_id: theirs.id }], promo_code: 'HALF' })),
    ).toMatchObject(invalidPromo);
    const mixed = await orders.create(buyer, {
      items: [{ product_id: mine.id }, { product_id: theirs.id }],
      promo_code: 'HALF',
    });
    expect(mixed.items.map((item) => [item.product_id, item.discount_cents])).toEqual([
      [mine.id, 500],
      [theirs.id, 0],
    ]);
    await promoCodes.create(seller, { code: 'ONLYNAMED', percent_off: 50, product_ids: [named.id] });
    const limited = await orders.create(buyer, {
      items: [{ product_id: mine.id }, { product_id: named.id }],
      promo_code: 'ONLYNAMED',
    });
    expect(limited.items.map((item) => [item.product_id, item.discount_cents])).toEqual([
      [mine.id, 0],
      [named.id, 500],
    ]);
    expect(limited).toMatchObject({ discount_amount_cents: 500, total_cents: 1500 });
  });
});

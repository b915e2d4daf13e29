import { SellerStatsReplySchema, type SellerStats } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { backdateOrderCompletion } from '../support/backdate.js';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, payInSandbox } from './order-helpers.js';

const suite = useTestServer();

async function statsOf(user: TestUser, period?: '7d' | '30d' | '90d' | 'all'): Promise<SellerStats> {
  const body = expectStatus(await user.api.marketplace.sellerStats({ query: period ? { period } : {} }), 200).body;
  return SellerStatsReplySchema.parse(body).stats;
}

async function buy(buyer: TestUser, productIds: string[]) {
  const order = expectStatus(
    await buyer.api.marketplace.createOrder({ body: { items: productIds.map((product_id) => ({ product_id })) } }),
    201,
  ).body;
  return payInSandbox(suite.server, buyer.api, order);
}

describe('seller stats', () => {
  it('counts the seller’s sold items in integer cents, leaves refunds out of revenue and counts them, ranks products, and lists every day', async () => {
    const [seller, other, buyer, second] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    expect(await statsOf(seller)).toMatchObject({
      period: '30d',
      orders: 0,
      units_sold: 0,
      refunds: 0,
      refund_rate: 0,
      revenue_cents_by_currency: {},
      top_products: [],
    });

    const [beat, pack] = await Promise.all([
      createProduct(suite.server, seller, { priceCents: 1999 }),
      createProduct(suite.server, seller, { priceCents: 500 }),
    ]);
    const foreign = await createProduct(suite.server, other, { priceCents: 700 });
    // one order with the seller's two products and another seller's; one with the beat again; one refunded
    await buy(buyer, [beat.id, pack.id, foreign.id]);
    await buy(second, [beat.id]);
    const refunded = await buy(second, [pack.id]);
    expectStatus(await second.api.marketplace.refundOrder({ params: { id: refunded.id }, body: {} }), 200);
    // an order completed 20 days ago counts in 30d, not in 7d
    const old = await buy(buyer, [pack.id]);
    await backdateOrderCompletion(suite.server, old.id, 20);

    const week = await statsOf(seller, '7d');
    expect(week).toMatchObject({
      period: '7d',
      orders: 3,
      units_sold: 3,
      refunds: 1,
      refund_rate: 0.3333,
      revenue_cents_by_currency: { USD: 1999 + 500 + 1999 },
    });
    expect(week.top_products).toEqual([
      { product_id: beat.id, title: expect.any(String), units: 2, revenue_cents: 3998 },
      { product_id: pack.id, title: expect.any(String), units: 1, revenue_cents: 500 },
    ]);
    expect(week.daily).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    expect(week.daily.at(-1)).toEqual({ date: today, orders: 3, revenue_cents: 4498 });
    expect(week.daily.slice(0, -1).every((day) => day.orders === 0 && day.revenue_cents === 0)).toBe(true);

    const month = await statsOf(seller);
    expect(month).toMatchObject({ orders: 4, units_sold: 4, refunds: 1, revenue_cents_by_currency: { USD: 4998 } });
    expect(month.daily).toHaveLength(30);
    expect(month.daily.reduce((sum, day) => sum + day.orders, 0)).toBe(4);

    const all = await statsOf(seller, 'all');
    expect(all.daily.map((day) => day.orders)).toEqual([1, 3]);
    // the other seller sees only their own item
    expect(await statsOf(other, 'all')).toMatchObject({
      orders: 1,
      units_sold: 1,
      revenue_cents_by_currency: { USD: 700 },
    });
  });

  it('a period that is not one of 7d, 30d, 90d, all is 400', async () => {
    const user = await createUser(suite.server);
    const reply = await fetch(`${suite.server.baseUrl}/api/v1/marketplace/seller/stats?period=1y`, {
      headers: { authorization: `Bearer ${user.accessToken}` },
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, createPromoCode, errorOf, orderRow } from './order-helpers.js';

const suite = useTestServer();

describe('creating an order', () => {
  it('copies prices: the named license, else the cheapest available one, else the product’s price; pending with a checkout', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const licensed = await createProduct(suite.server, seller, {
      title: 'Licensed',
      licenses: [
        { license_type: 'personal', price_cents: 2999 },
        { license_type: 'streaming', price_cents: 999 },
        { license_type: 'commercial', price_cents: 4999 },
      ],
    });
    const plain = await createProduct(suite.server, seller, { title: 'Plain', priceCents: 1250 });
    const named = await createProduct(suite.server, seller, {
      title: 'Named',
      licenses: [
        { license_type: 'commercial', price_cents: 4999 },
        { license_type: 'personal', price_cents: 100 },
      ],
    });
    const created = expectStatus(
      await buyer.api.marketplace.createOrder({
        body: {
          items: [
            { product_id: licensed.id },
            { product_id: plain.id },
            { product_id: named.id, license_type: 'commercial' },
          ],
        },
      }),
      201,
    ).body;
    expect(created.items.map((item) => [item.title, item.license_type, item.price, item.price_cents])).toEqual([
      ['Licensed', 'streaming', 9.99, 999],
      ['Plain', null, 12.5, 1250],
      ['Named', 'commercial', 49.99, 4999],
    ]);
    expect(created).toMatchObject({
      status: 'pending',
      payment_status: 'requires_payment',
      buyer_id: buyer.id,
      currency: 'USD',
      subtotal_cents: 7248,
      total_cents: 7248,
      total_amount: 72.48,
    });
    expect(created.payment.provider).toBe('sandbox');
    expect(created.payment.checkout_url).toMatch(/\/api\/v1\/marketplace\/sandbox\/checkout\/sbx_[a-f0-9]{32}$/);
    expect(new Date(created.payment.expires_at!).getTime()).toBeGreaterThan(Date.now());
    // a later price change does not touch the order
    expectStatus(await seller.api.marketplace.updateProduct({ params: { id: plain.id }, body: { price: 0.01 } }), 200);
    const read = expectStatus(await buyer.api.marketplace.getOrder({ params: { id: created.id } }), 200).body;
    expect(read.items[1]!.price_cents).toBe(1250);
    expect(read.total_cents).toBe(7248);
  });

  it('refuses one’s own product, a product not active, an unknown product, a missing license, mixed currencies, a product twice', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const own = await createProduct(suite.server, buyer);
    const draft = await createProduct(suite.server, seller, { status: 'draft' });
    const archived = await createProduct(suite.server, seller, { status: 'archived' });
    const usd = await createProduct(suite.server, seller);
    const eur = await createProduct(suite.server, seller, { currency: 'EUR' });
    const order = (items: { product_id: string; license_type?: 'exclusive' }[]) =>
      buyer.api.marketplace.createOrder({ body: { items } });
    expect(errorOf(await order([{ product_id: own.id }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await order([{ product_id: draft.id }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await order([{ product_id: archived.id }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await order([{ product_id: randomUUID() }]))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await order([{ product_id: usd.id, license_type: 'exclusive' }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await order([{ product_id: usd.id }, { product_id: eur.id }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await order([{ product_id: usd.id }, { product_id: usd.id }]))).toEqual([400, 'BAD_REQUEST']);
    expect(errorOf(await suite.http.post('/marketplace/orders', { token: buyer.token, body: { items: [] } }))).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
    // nothing was left behind by the refusals
    expect(expectStatus(await buyer.api.marketplace.listOrders(), 200).body).toEqual([]);
  });
});

describe('promo codes', () => {
  it('the seller’s code discounts their items: 19.99 with 200 cents off totals 17.99 exactly', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { priceCents: 1999 });
    const promoId = await createPromoCode(suite.server, seller, { code: 'TWOOFF', amount_off_cents: 200 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: 'twooff' } }),
      201,
    ).body;
    expect(order).toMatchObject({
      total_amount: 17.99,
      total_cents: 1799,
      subtotal_cents: 1999,
      discount_amount_cents: 200,
      promo_code_id: promoId,
    });
    expect(order.items[0]).toMatchObject({ price: 19.99, discount_cents: 200 });
  });

  it('a percentage applies only to that seller’s (and the named) products, rounded to the cent', async () => {
    const [seller, other, buyer] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const a = await createProduct(suite.server, seller, { priceCents: 999 });
    const b = await createProduct(suite.server, seller, { priceCents: 500 });
    const c = await createProduct(suite.server, other, { priceCents: 1000 });
    await createPromoCode(suite.server, seller, { code: 'THIRD', percent_off: 33, product_ids: [a.id] });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({
        body: { items: [{ product_id: a.id }, { product_id: b.id }, { product_id: c.id }], promo_code: 'THIRD' },
      }),
      201,
    ).body;
    // 33% of 999 = 329.67 → 330
    expect(order).toMatchObject({
      subtotal_cents: 2499,
      discount_amount_cents: 330,
      total_cents: 2169,
      total_amount: 21.69,
    });
    expect(order.items.map((item) => item.discount_cents)).toEqual([330, 0, 0]);
  });

  it('an unknown, expired, used-up, other seller’s or other currency’s code is 400 INVALID_PROMO_CODE', async () => {
    const [seller, other, buyer] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller);
    await createPromoCode(suite.server, seller, {
      code: 'OLD',
      percent_off: 10,
      expires_at: new Date(Date.now() - 1000),
    });
    await createPromoCode(suite.server, seller, { code: 'ONCE', percent_off: 10, max_redemptions: 1 });
    await createPromoCode(suite.server, seller, { code: 'EUROS', amount_off_cents: 100, currency: 'EUR' });
    await createPromoCode(suite.server, other, { code: 'NOTYOURS', percent_off: 10 });
    const order = (promo_code: string) =>
      buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code } });
    for (const code of ['NOPE', 'OLD', 'EUROS', 'NOTYOURS'])
      expect(errorOf(await order(code))).toEqual([400, 'INVALID_PROMO_CODE']);
    // the one redemption is held by the first pending order, then used up
    expectStatus(await order('ONCE'), 201);
    expect(errorOf(await order('ONCE'))).toEqual([400, 'INVALID_PROMO_CODE']);
  });
});

describe('reading orders', () => {
  it('the buyer lists and reads their orders; another user (the seller too) gets 403, an unknown id 404', async () => {
    const [seller, buyer, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller);
    const first = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const second = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    expect(expectStatus(await buyer.api.marketplace.listOrders(), 200).body.map((order) => order.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(expectStatus(await stranger.api.marketplace.listOrders(), 200).body).toEqual([]);
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: first.id } }), 200).body).toEqual(first);
    // the seller sees their sales elsewhere (invoice, export, stats), not the buyer's order and its checkout
    expect(errorOf(await seller.api.marketplace.getOrder({ params: { id: first.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(errorOf(await stranger.api.marketplace.getOrder({ params: { id: first.id } }))).toEqual([403, 'FORBIDDEN']);
    expect(errorOf(await buyer.api.marketplace.getOrder({ params: { id: randomUUID() } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await suite.api.marketplace.getOrder({ params: { id: first.id } }))).toEqual([
      401,
      'UNAUTHENTICATED',
    ]);
  });

  it('a total of 0 completes at once, with its licenses', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller, { priceCents: 0 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    expect(order).toMatchObject({
      status: 'completed',
      payment_status: 'succeeded',
      total_amount: 0,
      payment: { checkout_url: null },
    });
    expect(new Date(order.refund_deadline!).getTime() - new Date(order.completed_at!).getTime()).toBe(
      14 * 24 * 60 * 60 * 1000,
    );
    const grants = await suite.server.riff.database.db
      .selectFrom('license_grants')
      .selectAll()
      .where('order_id', '=', order.id)
      .execute();
    expect(grants).toHaveLength(1);
    // a 100% code makes a paid product free too
    const paid = await createProduct(suite.server, seller, { priceCents: 1500 });
    await createPromoCode(suite.server, seller, { code: 'FREE', percent_off: 100 });
    const free = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: paid.id }], promo_code: 'FREE' } }),
      201,
    ).body;
    expect(free).toMatchObject({ status: 'completed', total_cents: 0, discount_amount_cents: 1500 });
    expect((await orderRow(suite.server, free.id)).promo_code_id).not.toBeNull();
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body answer the first reply; another body is 409 CONFLICT', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const a = await createProduct(suite.server, seller);
    const b = await createProduct(suite.server, seller);
    const headers = { 'idempotency-key': `key-${randomUUID()}` };
    const first = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: a.id }] }, headers }),
      201,
    );
    const again = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: a.id }] }, headers }),
      201,
    );
    expect(again.body).toEqual(first.body);
    expect(
      errorOf(await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: b.id }] }, headers })),
    ).toEqual([409, 'CONFLICT']);
    // keys are per user: another buyer's same key is theirs
    const other = await createUser(suite.server);
    const theirs = expectStatus(
      await other.api.marketplace.createOrder({ body: { items: [{ product_id: b.id }] }, headers }),
      201,
    );
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(expectStatus(await buyer.api.marketplace.listOrders(), 200).body).toHaveLength(1);
  });

  it('10 concurrent duplicates create one order', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const product = await createProduct(suite.server, seller);
    const headers = { 'idempotency-key': randomUUID() };
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] }, headers }),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual(Array(10).fill(201));
    const ids = new Set(replies.map((reply) => expectStatus(reply, 201).body.id));
    expect(ids.size).toBe(1);
    expect(expectStatus(await buyer.api.marketplace.listOrders(), 200).body).toHaveLength(1);
  });
});

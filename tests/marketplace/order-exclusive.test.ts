import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, createPromoCode, errorOf, payInSandbox, productRow } from './order-helpers.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;

describe('exclusive licenses', () => {
  it('10 buyers at once on one exclusive license: exactly one order is made, the others are 409 CONFLICT', async () => {
    const seller = await createUser(suite.server);
    const buyers = await Promise.all(Array.from({ length: 10 }, () => createUser(suite.server)));
    const product = await createProduct(suite.server, seller, {
      licenses: [
        { license_type: 'personal', price_cents: 2000 },
        { license_type: 'exclusive', price_cents: 100000 },
      ],
    });
    const replies = await Promise.all(
      buyers.map((buyer) =>
        buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id, license_type: 'exclusive' }] } }),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const reply of replies.filter((candidate) => candidate.status === 409))
      expect(errorOf(reply)).toEqual([409, 'CONFLICT']);
    const pending = await db()
      .selectFrom('order_items')
      .select('order_id')
      .where('product_id', '=', product.id)
      .execute();
    expect(pending).toHaveLength(1);
  });

  it('the sale archives the product and makes its licenses unavailable; a later order is 409; a refund puts it back on sale', async () => {
    const [seller, buyer, late] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller, {
      licenses: [
        { license_type: 'personal', price_cents: 2000 },
        { license_type: 'exclusive', price_cents: 100000 },
      ],
    });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({
        body: { items: [{ product_id: product.id, license_type: 'exclusive' }] },
      }),
      201,
    ).body;
    expect(order.total_amount).toBe(1000);
    // while it is held, nobody else gets the exclusive
    expect(
      errorOf(
        await late.api.marketplace.createOrder({
          body: { items: [{ product_id: product.id, license_type: 'exclusive' }] },
        }),
      ),
    ).toEqual([409, 'CONFLICT']);
    const paid = await payInSandbox(suite.server, buyer.api, order);
    expect(paid.status).toBe('completed');
    expect((await productRow(suite.server, product.id)).status).toBe('archived');
    const licenses = await db()
      .selectFrom('product_licenses')
      .select(['license_type', 'is_available'])
      .where('product_id', '=', product.id)
      .execute();
    expect(licenses.every((license) => !license.is_available)).toBe(true);
    expect(
      errorOf(
        await late.api.marketplace.createOrder({
          body: { items: [{ product_id: product.id, license_type: 'exclusive' }] },
        }),
      ),
    ).toEqual([409, 'CONFLICT']);
    expect(errorOf(await late.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }))).toEqual([
      409,
      'CONFLICT',
    ]);

    const refunded = expectStatus(
      await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: { reason: 'changed my mind' } }),
      200,
    ).body;
    expect(refunded).toMatchObject({ status: 'refunded', payment_status: 'refunded' });
    expect((await productRow(suite.server, product.id)).status).toBe('active');
    expect((await productRow(suite.server, product.id)).sales_count).toBe(0);
    expectStatus(
      await late.api.marketplace.createOrder({
        body: { items: [{ product_id: product.id, license_type: 'exclusive' }] },
      }),
      201,
    );
  });

  it('a product without licenses whose license_type is exclusive is held and sold the same way', async () => {
    const [seller, a, b] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller, { licenseType: 'exclusive', priceCents: 30000 });
    const [first, second] = await Promise.all(
      [a, b].map((buyer) => buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } })),
    );
    expect([first!.status, second!.status].sort()).toEqual([201, 409]);
  });
});

describe('promo code redemptions under concurrency', () => {
  it('max_redemptions holds however many buyers use the code at once', async () => {
    const seller = await createUser(suite.server);
    const buyers = await Promise.all(Array.from({ length: 6 }, () => createUser(suite.server)));
    const product = await createProduct(suite.server, seller, { priceCents: 1000 });
    const promoId = await createPromoCode(suite.server, seller, { code: 'FEW', percent_off: 50, max_redemptions: 2 });
    const replies = await Promise.all(
      buyers.map((buyer) =>
        buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: 'FEW' } }),
      ),
    );
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    const made = replies.flatMap((reply, index) =>
      reply.status === 201 ? [[buyers[index]!, expectStatus(reply, 201).body] as const] : [],
    );
    for (const [buyer, order] of made)
      expect((await payInSandbox(suite.server, buyer.api, order)).status).toBe('completed');
    const promo = await db()
      .selectFrom('promo_codes')
      .select('redemption_count')
      .where('id', '=', promoId)
      .executeTakeFirstOrThrow();
    expect(promo.redemption_count).toBe(2);
    expect(
      errorOf(
        await buyers[0]!.api.marketplace.createOrder({
          body: { items: [{ product_id: product.id }], promo_code: 'FEW' },
        }),
      ),
    ).toEqual([400, 'INVALID_PROMO_CODE']);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { closeRefundWindow } from '../support/backdate.js';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, createPromoCode, errorOf, payInSandbox } from './order-helpers.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;

async function completedOrder(seller: TestUser, buyer: TestUser) {
  const product = await createProduct(suite.server, seller, {
    priceCents: 2500,
    file: { bytes: Buffer.from('bytes'), name: 'pack.zip', contentType: 'application/zip' },
  });
  const order = expectStatus(
    await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
    201,
  ).body;
  return { product, order: await payInSandbox(suite.server, buyer.api, order) };
}

describe('refunds', () => {
  it('the buyer refunds within the window: refunded, licenses revoked, downloads stop', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const { product, order } = await completedOrder(seller, buyer);
    const link = expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body;
    const refunded = expectStatus(
      await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }),
      200,
    ).body;
    expect(refunded).toMatchObject({ status: 'refunded', payment_status: 'refunded', id: order.id });
    expect(refunded.refunded_at).not.toBeNull();
    const grants = await db()
      .selectFrom('license_grants')
      .select('revoked_at')
      .where('order_id', '=', order.id)
      .execute();
    expect(grants.every((grant) => grant.revoked_at !== null)).toBe(true);
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
    // a URL handed out before the refund stops working too
    const file = await fetch(link.url);
    expect(file.status).toBe(403);
    // a second refund is not a second payout
    expect(errorOf(await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }))).toEqual([
      400,
      'INVALID_TRANSITION',
    ]);
    const audit = await db()
      .selectFrom('audit_logs')
      .select('action')
      .where('resource_id', '=', order.id)
      .where('action', '=', 'order.refunded')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('after refund_deadline the buyer gets 400 REFUND_WINDOW_CLOSED; the seller may still refund', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const { order } = await completedOrder(seller, buyer);
    await closeRefundWindow(suite.server, order.id);
    expect(errorOf(await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }))).toEqual([
      400,
      'REFUND_WINDOW_CLOSED',
    ]);
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body.status).toBe(
      'completed',
    );
    const refunded = expectStatus(
      await seller.api.marketplace.refundOrder({ params: { id: order.id }, body: { reason: 'goodwill' } }),
      200,
    ).body;
    expect(refunded.status).toBe('refunded');
  });

  it('a refund gives the promo code’s redemption back: a code used up by the order can be used again', async () => {
    const [seller, buyer, other] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller, { priceCents: 2500 });
    const code = `ONCE${randomUUID().slice(0, 8)}`;
    const promoId = await createPromoCode(suite.server, seller, { code, percent_off: 20, max_redemptions: 1 });
    const redemptions = async () =>
      (
        await db()
          .selectFrom('promo_codes')
          .select('redemption_count')
          .where('id', '=', promoId)
          .executeTakeFirstOrThrow()
      ).redemption_count;
    const created = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: code } }),
      201,
    ).body;
    const order = await payInSandbox(suite.server, buyer.api, created);
    expect(order.discount_amount_cents).toBe(500);
    expect(await redemptions()).toBe(1);
    expect(
      errorOf(
        await other.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: code } }),
      ),
    ).toEqual([400, 'INVALID_PROMO_CODE']);
    expectStatus(await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }), 200);
    expect(await redemptions()).toBe(0);
    const again = expectStatus(
      await other.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }], promo_code: code } }),
      201,
    ).body;
    expect(again.discount_amount_cents).toBe(500);
  });

  it('a pending order cannot be refunded; another user gets 403; an unknown order 404', async () => {
    const [seller, buyer, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller);
    const pending = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    expect(errorOf(await buyer.api.marketplace.refundOrder({ params: { id: pending.id }, body: {} }))).toEqual([
      400,
      'INVALID_TRANSITION',
    ]);
    const { order } = await completedOrder(seller, buyer);
    expect(errorOf(await stranger.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(errorOf(await buyer.api.marketplace.refundOrder({ params: { id: randomUUID() }, body: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body.status).toBe(
      'completed',
    );
  });
});

import { InvoiceReplySchema, type Invoice } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, createPromoCode, errorOf, payInSandbox } from './order-helpers.js';

const suite = useTestServer();

async function invoiceOf(user: TestUser, orderId: string): Promise<Invoice> {
  const reply = await fetch(`${suite.server.baseUrl}/api/v1/marketplace/orders/${orderId}/invoice`, {
    headers: { authorization: `Bearer ${user.accessToken}`, accept: 'application/json' },
  });
  expect(reply.status).toBe(200);
  return InvoiceReplySchema.parse(await reply.json()).invoice;
}

/** A buyer's one order of two sellers' products; the first seller's promo code discounts the first line. */
async function mixedOrder() {
  const [seller, other, buyer] = await Promise.all([
    createUser(suite.server),
    createUser(suite.server),
    createUser(suite.server),
  ]);
  const mine = await createProduct(suite.server, seller, { title: 'Seller one beat', priceCents: 1999 });
  const theirs = await createProduct(suite.server, other, { title: 'Seller two pack', priceCents: 500 });
  const code = `MIX${Math.random().toString(36).slice(2, 10)}`;
  await createPromoCode(suite.server, seller, { code, amount_off_cents: 200, currency: 'USD' });
  const items = [{ product_id: mine.id }, { product_id: theirs.id }];
  const order = expectStatus(await buyer.api.marketplace.createOrder({ body: { items, promo_code: code } }), 201).body;
  expect(order.payment.checkout_url).toBeTruthy();
  return { seller, other, buyer, mine, theirs, order };
}

describe('a mixed order as each seller sees it', () => {
  it('no seller reads the order itself: only the buyer does (403 for the sellers, as for anyone else)', async () => {
    const { seller, other, buyer, order } = await mixedOrder();
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body).toEqual(order);
    for (const user of [seller, other]) {
      const reply = await user.api.marketplace.getOrder({ params: { id: order.id } });
      expect(errorOf(reply)).toEqual([403, 'FORBIDDEN']);
      expect(JSON.stringify(reply.body)).not.toContain(order.payment.checkout_url!);
    }
  });

  it('the export lists a sale with the seller’s own lines only, never the checkout or the other seller’s line', async () => {
    const { seller, other, mine, theirs, order } = await mixedOrder();
    const secret = order.payment.checkout_url!.split('/').pop()!;

    const sold = expectStatus(await other.api.users.exportData(), 200).body;
    const text = JSON.stringify(sold);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(mine.id);
    expect(text).not.toContain('Seller one beat');
    const [sale] = sold.marketplace_sales;
    expect(sold.marketplace_sales).toHaveLength(1);
    expect(sale!.id).toBe(order.id);
    expect(sale!.items.map((item) => [item.product_id, item.price_cents, item.discount_cents])).toEqual([
      [theirs.id, 500, 0],
    ]);
    expect(sale!).toMatchObject({
      subtotal_cents: 500,
      discount_amount_cents: 0,
      total_cents: 500,
      total_amount: 5,
      promo_code_id: null,
      payment_intent: null,
    });
    expect(sale!.payment).toEqual({ provider: 'sandbox', checkout_url: null, expires_at: null });

    // the first seller's sale carries their line and their promo code's discount
    const first = expectStatus(await seller.api.users.exportData(), 200).body.marketplace_sales;
    expect(first.map((row) => row.items.map((item) => item.product_id))).toEqual([[mine.id]]);
    expect(first[0]).toMatchObject({
      subtotal_cents: 1999,
      discount_amount_cents: 200,
      total_cents: 1799,
      promo_code_id: order.promo_code_id,
    });
    expect(first[0]!.payment.checkout_url).toBeNull();
  });

  it('once paid: each seller’s invoice holds their lines only; the buyer’s holds all; a seller of part of it cannot refund it', async () => {
    const { seller, other, buyer, mine, theirs, order } = await mixedOrder();
    const paid = await payInSandbox(suite.server, buyer.api, order);
    expect(paid.status).toBe('completed');

    const whole = await invoiceOf(buyer, order.id);
    expect(whole.lines.map((line) => line.product_id)).toEqual([mine.id, theirs.id]);
    expect(whole.total_cents).toBe(2299);
    const forOther = await invoiceOf(other, order.id);
    expect(forOther.number).toBe(whole.number);
    expect(forOther.lines.map((line) => [line.product_id, line.total_cents])).toEqual([[theirs.id, 500]]);
    expect(forOther).toMatchObject({ discount_cents: 0, total_cents: 500 });
    const forSeller = await invoiceOf(seller, order.id);
    expect(forSeller.lines.map((line) => [line.product_id, line.total_cents])).toEqual([[mine.id, 1799]]);
    expect(forSeller).toMatchObject({ discount_cents: 200, total_cents: 1799 });

    for (const user of [seller, other]) {
      const reply = await user.api.marketplace.refundOrder({ params: { id: order.id }, body: {} });
      expect(errorOf(reply)).toEqual([403, 'FORBIDDEN']);
    }
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body.status).toBe(
      'completed',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import {
  serviceOrder,
  servicePaidOrder,
  serviceProduct,
  serviceUser,
  type ServiceUser,
} from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of products and orders, called on the services with an Actor: who sees and changes a
// product, what may be ordered, whose an order is, and who refunds it. products.test.ts,
// orders.test.ts, order-exclusive.test.ts and order-refunds.test.ts hold the routes, the sandbox's
// hosted page and the replies to the contract.
const suite = useServices();
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const badRequest = { status: 400, code: 'BAD_REQUEST' };

/** A draft of the seller's, not yet on sale. */
async function draftOf(seller: ServiceUser, title = 'Draft pack') {
  return suite.areas.marketplace.services.products.create(seller, { title, price: 9.99, product_type: 'pack' });
}

describe('products (service)', () => {
  it('a draft is its seller’s and admins’ to see; on sale, everyone sees it', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const draft = await draftOf(seller);
    expect(draft).toMatchObject({ status: 'draft', seller_id: seller.id });
    expect(await refusal(products.get(other, draft.id))).toMatchObject(notFound);
    expect((await products.get(admin, draft.id)).status).toBe('draft');
    await products.update(seller, draft.id, { status: 'active' });
    expect((await products.get(other, draft.id)).status).toBe('active');
  });

  it('only the seller changes a product, an admin neither; a product moves draft → active ⇄ archived, never back to draft', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const product = await serviceProduct(suite, seller);
    expect(await refusal(products.update(other, product.id, { price: 1 }))).toMatchObject(forbidden);
    expect(await refusal(products.update(admin, product.id, { price: 1 }))).toMatchObject(forbidden);
    expect(await refusal(products.update(seller, product.id, { status: 'draft' }))).toMatchObject({
      status: 400,
      code: 'INVALID_TRANSITION',
    });
    expect((await products.update(seller, product.id, { status: 'archived' })).status).toBe('archived');
    expect((await products.update(seller, product.id, { status: 'active', price: 12.5 })).price).toBe(12.5);
  });

  it('removing a product deletes it, unless an order names it: then it is archived and stays the order’s record', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const unsold = await serviceProduct(suite, seller, { title: 'Unsold' });
    const ordered = await serviceProduct(suite, seller, { title: 'Ordered' });
    await serviceOrder(suite, buyer, [ordered]);
    expect(await products.remove(seller, unsold.id)).toMatchObject({ result: 'deleted', product: null });
    expect(await refusal(products.get(seller, unsold.id))).toMatchObject(notFound);
    expect(await products.remove(seller, ordered.id)).toMatchObject({
      result: 'archived',
      product: { id: ordered.id, status: 'archived' },
    });
    expect(await refusal(products.get(buyer, ordered.id))).toMatchObject(notFound);
  });
});

describe('orders (service)', () => {
  it('a buyer orders others’ products on sale, each once, in one currency', async () => {
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { price: 10 });
    const euros = await serviceProduct(suite, seller, { price: 10, currency: 'EUR' });
    const draft = await draftOf(seller);
    expect(await refusal(serviceOrder(suite, seller, [product]))).toMatchObject(badRequest);
    expect(await refusal(serviceOrder(suite, buyer, [product, product]))).toMatchObject(badRequest);
    expect(await refusal(serviceOrder(suite, buyer, [product, euros]))).toMatchObject(badRequest);
    expect(await refusal(serviceOrder(suite, buyer, [draft]))).toMatchObject(badRequest);
    expect(await suite.areas.marketplace.services.orders.list(buyer)).toEqual([]);
  });

  it('a new order waits for payment at the sandbox with the items’ prices; it is the buyer’s alone', async () => {
    const { orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const other = await serviceUser(suite);
    const first = await serviceProduct(suite, seller, { price: 10 });
    const second = await serviceProduct(suite, seller, { title: 'Second', price: 2.5 });
    const order = await serviceOrder(suite, buyer, [first, second]);
    expect(order).toMatchObject({
      buyer_id: buyer.id,
      status: 'pending',
      subtotal_cents: 1250,
      total_cents: 1250,
      currency: 'USD',
      payment: { provider: 'sandbox' },
      refund_deadline: null,
    });
    expect(order.payment.checkout_url).toContain('/marketplace/sandbox/checkout/sbx_');
    expect((await orders.list(buyer)).map((listed) => listed.id)).toEqual([order.id]);
    expect(await refusal(orders.get(other, order.id))).toMatchObject(forbidden);
    expect(await refusal(orders.get(seller, order.id))).toMatchObject(forbidden);
  });

  it('a paid order is completed with a refund deadline; only a completed order is refunded', async () => {
    const { orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller);
    const pending = await serviceOrder(suite, buyer, [product]);
    expect(await refusal(orders.refund(buyer, pending.id, {}))).toMatchObject({
      status: 400,
      code: 'INVALID_TRANSITION',
    });
    const paid = await servicePaidOrder(suite, buyer, [product]);
    expect(paid).toMatchObject({ status: 'completed', payment_status: 'succeeded' });
    expect(paid.refund_deadline).not.toBeNull();
    const refunded = await orders.refund(buyer, paid.id, { reason: 'Wrong pack' });
    expect(refunded).toMatchObject({ status: 'refunded', payment_status: 'refunded' });
    expect(await refusal(orders.refund(buyer, paid.id, {}))).toMatchObject({ code: 'INVALID_TRANSITION' });
  });

  it('the seller may refund a sale too; a third user may not', async () => {
    const { orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const other = await serviceUser(suite);
    const product = await serviceProduct(suite, seller);
    const paid = await servicePaidOrder(suite, buyer, [product]);
    expect(await refusal(orders.refund(other, paid.id, {}))).toMatchObject(forbidden);
    expect((await orders.refund(seller, paid.id, {})).status).toBe('refunded');
    expect((await orders.get(buyer, paid.id)).status).toBe('refunded');
  });

  it('an exclusive license is held by the first order for it: another buyer is refused while it waits and once it is sold', async () => {
    const seller = await serviceUser(suite);
    const first = await serviceUser(suite);
    const second = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { license_type: 'exclusive' });
    await serviceOrder(suite, first, [product]);
    expect(await refusal(serviceOrder(suite, second, [product]))).toMatchObject({ status: 409, code: 'CONFLICT' });
    const sold = await serviceProduct(suite, seller, { title: 'Sold once', license_type: 'exclusive' });
    expect((await servicePaidOrder(suite, first, [sold])).status).toBe('completed');
    expect(await refusal(serviceOrder(suite, second, [sold]))).toMatchObject({ status: 409, code: 'CONFLICT' });
  });
});

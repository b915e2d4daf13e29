import { randomUUID } from 'node:crypto';
import { PDFParse } from 'pdf-parse';
import { InvoiceReplySchema, type Invoice } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, createPromoCode, errorOf, payInSandbox } from './order-helpers.js';

const suite = useTestServer();

async function textOf(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** GET …/invoice as JSON (through the contract gate) or as the PDF (straight to the server: a proxy may alter binary bodies). */
async function invoiceOf(user: TestUser, orderId: string, as: 'json' | 'pdf' | 'default' = 'json') {
  const base = as === 'json' ? suite.server.baseUrl : suite.server.directUrl;
  const headers: Record<string, string> = { authorization: `Bearer ${user.accessToken}` };
  if (as !== 'default') headers['accept'] = as === 'json' ? 'application/json' : 'application/pdf';
  return fetch(`${base}/api/v1/marketplace/orders/${orderId}/invoice`, { headers });
}

async function jsonInvoice(user: TestUser, orderId: string): Promise<Invoice> {
  const reply = await invoiceOf(user, orderId);
  expect(reply.status).toBe(200);
  return InvoiceReplySchema.parse(await reply.json()).invoice;
}

async function completedOrder(seller: TestUser, buyer: TestUser, options: { promo?: boolean } = {}) {
  const [first, second] = await Promise.all([
    createProduct(suite.server, seller, { priceCents: 1999 }),
    createProduct(suite.server, seller, { priceCents: 500 }),
  ]);
  const code = options.promo ? `INV${randomUUID().slice(0, 8)}` : undefined;
  if (code) await createPromoCode(suite.server, seller, { code, amount_off_cents: 200, currency: 'USD' });
  const items = [{ product_id: first.id }, { product_id: second.id }];
  const order = expectStatus(
    await buyer.api.marketplace.createOrder({ body: { items, ...(code ? { promo_code: code } : {}) } }),
    201,
  ).body;
  return payInSandbox(suite.server, buyer.api, order);
}

describe('invoices', () => {
  it('a completed order’s invoice: numbered, its lines and totals in integer cents, the same for buyer and seller every time', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const order = await completedOrder(seller, buyer, { promo: true });
    const invoice = await jsonInvoice(buyer, order.id);
    expect(invoice.number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`));
    expect(invoice.buyer).toEqual({ id: buyer.id, name: buyer.username, email: buyer.email });
    expect(invoice.seller).toEqual({ id: seller.id, name: seller.username, email: null });
    expect(invoice.currency).toBe('USD');
    expect(invoice.lines.map((line) => line.price_cents)).toEqual([1999, 500]);
    expect(invoice.discount_cents).toBe(200);
    expect(invoice.lines.reduce((sum, line) => sum + line.discount_cents, 0)).toBe(200);
    for (const line of invoice.lines) expect(line.total_cents).toBe(line.price_cents - line.discount_cents);
    expect(invoice.total_cents).toBe(invoice.lines.reduce((sum, line) => sum + line.total_cents, 0));
    expect(invoice.total_cents).toBe(2299);
    expect(Math.round(order.total_amount * 100)).toBe(invoice.total_cents);
    // issued once: the seller, and the buyer again, read the same invoice
    expect(await jsonInvoice(seller, order.id)).toEqual(invoice);
    expect(await jsonInvoice(buyer, order.id)).toEqual(invoice);
  });

  it('the PDF by default: the same number, parties and total, as an attachment', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const order = await completedOrder(seller, buyer);
    const invoice = await jsonInvoice(buyer, order.id);
    for (const as of ['default', 'pdf'] as const) {
      const reply = await invoiceOf(seller, order.id, as);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/pdf');
      expect(reply.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.number}.pdf"`);
      const pdf = Buffer.from(await reply.arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = await textOf(pdf);
      expect(text).toContain(invoice.number);
      expect(text).toContain(buyer.username);
      expect(text).toContain(seller.username);
      expect(text).toContain('24.99 USD');
    }
  });

  it('concurrent first reads of an order issue one invoice; each order its own number', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const [one, two] = [await completedOrder(seller, buyer), await completedOrder(seller, buyer)];
    const reads = await Promise.all([
      ...Array.from({ length: 6 }, () => jsonInvoice(buyer, one.id)),
      jsonInvoice(seller, two.id),
    ]);
    expect(new Set(reads.slice(0, 6).map((invoice) => invoice.number)).size).toBe(1);
    expect(reads[6]!.number).not.toBe(reads[0]!.number);
    const rows = await suite.server.riff.database.db
      .selectFrom('invoices')
      .select('number')
      .where('order_id', 'in', [one.id, two.id])
      .execute();
    expect(rows).toHaveLength(2);
  });

  it('a refunded order keeps its invoice; a pending one has none (404); another user gets 403, an unknown order 404', async () => {
    const [seller, buyer, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const order = await completedOrder(seller, buyer);
    const before = await jsonInvoice(buyer, order.id);
    expectStatus(await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: {} }), 200);
    expect(await jsonInvoice(buyer, order.id)).toEqual(before);

    const product = await createProduct(suite.server, seller);
    const pending = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    const read = async (user: TestUser, id: string) => {
      const reply = await invoiceOf(user, id);
      return errorOf({ status: reply.status, body: await reply.json() });
    };
    expect(await read(buyer, pending.id)).toEqual([404, 'NOT_FOUND']);
    expect(await read(stranger, order.id)).toEqual([403, 'FORBIDDEN']);
    expect(await read(buyer, randomUUID())).toEqual([404, 'NOT_FOUND']);
    const count = await suite.server.riff.database.db
      .selectFrom('invoices')
      .select('id')
      .where('order_id', '=', pending.id)
      .execute();
    expect(count).toHaveLength(0);
  });
});

describe('orders in the account’s data', () => {
  it('the export holds one’s orders as buyer and as seller; deleting the buyer’s account keeps the order, its items and its invoice', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const order = await completedOrder(seller, buyer);
    const invoice = await jsonInvoice(seller, order.id);
    const bought = expectStatus(await buyer.api.users.exportData(), 200).body;
    expect(bought.marketplace_orders.map((row) => [row.id, row.status, row.total_cents])).toEqual([
      [order.id, 'completed', 2499],
    ]);
    expect(bought.marketplace_sales).toEqual([]);
    const sold = expectStatus(await seller.api.users.exportData(), 200).body;
    expect(sold.marketplace_sales.map((row) => [row.id, row.items.length])).toEqual([[order.id, 2]]);
    expect(sold.marketplace_orders).toEqual([]);

    expectStatus(
      await buyer.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: buyer.password } }),
      200,
    );
    // the seller still reads the sale and its invoice, as at issue
    const [kept] = expectStatus(await seller.api.users.exportData(), 200).body.marketplace_sales;
    expect(kept).toMatchObject({ id: order.id, status: 'completed', total_cents: 2499 });
    expect(kept!.items).toHaveLength(2);
    expect(await jsonInvoice(seller, order.id)).toEqual(invoice);
  });
});

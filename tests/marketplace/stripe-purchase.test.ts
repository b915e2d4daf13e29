/**
 * A purchase through the server with PAYMENT_PROVIDER=stripe, end to end: the order's Checkout
 * Session is created on a local stand-in for Stripe's API, Stripe's signed webhook (made with the
 * `stripe` package's own test header helper) completes the order, the buyer downloads, a replayed
 * event changes nothing, a forged one is 401, and the refund goes back through Stripe.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, errorOf } from './order-helpers.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';

const SECRET = 'whsec_test_riff_e2e_0123456789abcdef';
const signer = new Stripe('sk_test_signer');

let standIn: StripeStandIn;
let server: TestServer;

beforeAll(async () => {
  standIn = await startStripeStandIn();
  server = await startTestServer({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_riff',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_URL: standIn.url,
  });
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

/** Posts a Stripe event to the webhook as Stripe does, signed with `secret`. */
async function deliver(type: string, object: Record<string, unknown>, options: { id?: string; secret?: string } = {}) {
  const id = options.id ?? `evt_${Math.random().toString(36).slice(2)}`;
  const payload = JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const header = signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? SECRET });
  const reply = await fetch(`${server.baseUrl}/api/v1/marketplace/payments/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
  return { status: reply.status, body: (await reply.json()) as unknown, id };
}

describe('a purchase paid with Stripe', () => {
  it('checkout on Stripe, completion by its signed webhook (once), download, refund through Stripe', async () => {
    const [seller, buyer] = await Promise.all([createUser(server), createUser(server)]);
    const product = await createProduct(server, seller, {
      priceCents: 2500,
      file: { bytes: Buffer.from('the stems'), name: 'stems.zip', contentType: 'application/zip' },
    });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    expect(order).toMatchObject({
      status: 'pending',
      payment_status: 'requires_payment',
      payment: { provider: 'stripe' },
    });
    expect(order.payment.checkout_url).toMatch(new RegExp(`^${standIn.url}/c/pay/cs_test_\\d+$`));
    const created = standIn.requests.find(
      (request) => request.path === '/v1/checkout/sessions' && request.form['metadata[order_id]'] === order.id,
    )!;
    expect(created.form).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '2500',
      'line_items[0][price_data][currency]': 'usd',
    });
    const sessionId = order.payment.checkout_url!.split('/').at(-1)!;

    // not paid yet: no download
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
    // a forged event is refused and changes nothing
    const session = {
      id: sessionId,
      object: 'checkout.session',
      payment_status: 'paid',
      payment_intent: 'pi_test_e2e',
      amount_total: 2500,
      currency: 'usd',
      client_reference_id: order.id,
      metadata: { order_id: order.id },
    };
    const forged = await deliver('checkout.session.completed', session, { secret: 'whsec_someone_else' });
    expect(errorOf({ status: forged.status, body: forged.body })).toEqual([401, 'UNAUTHENTICATED']);
    expect(expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body.status).toBe(
      'pending',
    );

    const paid = await deliver('checkout.session.completed', session);
    expect(paid).toMatchObject({ status: 200, body: { received: true } });
    const completed = expectStatus(await buyer.api.marketplace.getOrder({ params: { id: order.id } }), 200).body;
    expect(completed).toMatchObject({
      status: 'completed',
      payment_status: 'succeeded',
      payment_provider_payment_id: 'pi_test_e2e',
    });
    expect(completed.refund_deadline).not.toBeNull();
    const link = expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body;
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe('the stems');

    // Stripe delivers at least once: the same event again is applied once
    expect((await deliver('checkout.session.completed', session, { id: paid.id })).status).toBe(200);
    const grants = await server.riff.database.db
      .selectFrom('license_grants')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(grants).toHaveLength(1);

    const refunded = expectStatus(
      await buyer.api.marketplace.refundOrder({ params: { id: order.id }, body: { reason: 'wrong pack' } }),
      200,
    ).body;
    expect(refunded).toMatchObject({ status: 'refunded', payment_status: 'refunded' });
    const refund = standIn.requests.find(
      (request) => request.path === '/v1/refunds' && request.form['metadata[order_id]'] === order.id,
    )!;
    expect(refund.form).toMatchObject({ payment_intent: 'pi_test_e2e', amount: '2500' });
    expect(refund.headers['idempotency-key']).toBe(`refund-${order.id}`);
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
  });
});

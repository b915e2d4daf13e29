/**
 * The Stripe payment provider (server/src/modules/marketplace/payments/stripe-provider.ts) with the
 * real `stripe` package, talking to a local stand-in for Stripe's API: what Stripe receives for a
 * checkout and a refund, and how signed webhooks become Riff's payment events (401 when the
 * signature does not verify).
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  StripeProvider,
  stripeProviderFromConfig,
} from '../../server/src/modules/marketplace/payments/stripe-provider.js';
import { AppError } from '../../server/src/platform/errors/app-error.js';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.js';

const SECRET = 'whsec_test_riff_0123456789abcdef';
const ORDER_ID = '6a1f0c2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b';

let standIn: StripeStandIn;
let provider: StripeProvider;
const signer = new Stripe('sk_test_signer');

beforeAll(async () => {
  standIn = await startStripeStandIn();
  provider = new StripeProvider({
    secretKey: 'sk_test_riff',
    webhookSecret: SECRET,
    apiUrl: standIn.url,
    successUrl: 'http://127.0.0.1:8080/orders/done?session={CHECKOUT_SESSION_ID}',
    cancelUrl: 'http://127.0.0.1:8080/orders/cancelled',
  });
});

afterAll(async () => {
  await standIn?.close();
});

describe('createCheckout', () => {
  it('creates a Checkout Session in payment mode: integer cents, lower-case currency, the order id as metadata, reference and idempotency key', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const checkout = await provider.createCheckout({
      orderId: ORDER_ID,
      amountCents: 1799,
      currency: 'EUR',
      description: 'Night Drive (beat), Drum kit',
      buyerEmail: 'buyer@example.org',
      expiresAt,
    });
    const request = standIn.requests.at(-1)!;
    expect([request.method, request.path]).toEqual(['POST', '/v1/checkout/sessions']);
    expect(request.headers.authorization).toBe('Bearer sk_test_riff');
    expect(request.headers['idempotency-key']).toBe(ORDER_ID);
    expect(request.form).toMatchObject({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '1799',
      'line_items[0][price_data][product_data][name]': 'Night Drive (beat), Drum kit',
      client_reference_id: ORDER_ID,
      'metadata[order_id]': ORDER_ID,
      'payment_intent_data[metadata][order_id]': ORDER_ID,
      customer_email: 'buyer@example.org',
      expires_at: String(Math.floor(expiresAt.getTime() / 1000)),
      success_url: 'http://127.0.0.1:8080/orders/done?session={CHECKOUT_SESSION_ID}',
    });
    expect(checkout.sessionId).toMatch(/^cs_test_/);
    expect(checkout.checkoutUrl).toBe(`${standIn.url}/c/pay/${checkout.sessionId}`);
    expect(checkout.expiresAt.getTime()).toBe(Math.floor(expiresAt.getTime() / 1000) * 1000);
  });

  it('the same order gives the same session (Stripe replays the idempotency key); the expiry is kept within Stripe’s 30 min – 24 h', async () => {
    const orderId = '7b2a1d3f-4c5e-4f6a-9b8c-1d2e3f4a5b6c';
    const first = await provider.createCheckout({
      orderId,
      amountCents: 500,
      currency: 'USD',
      description: '',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const again = await provider.createCheckout({
      orderId,
      amountCents: 500,
      currency: 'USD',
      description: '',
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(again.sessionId).toBe(first.sessionId);
    const sent = standIn.requests.filter((request) => request.headers['idempotency-key'] === orderId);
    expect(sent).toHaveLength(2);
    const expires = Number(sent[0]!.form.expires_at) * 1000;
    expect(expires).toBeGreaterThanOrEqual(Date.now() + 30 * 60_000 - 5000);
    expect(sent[0]!.form['line_items[0][price_data][product_data][name]']).toBe('Riff order');
    const late = await provider.createCheckout({
      orderId: '8c3b2e4a-5d6f-4a7b-8c9d-2e3f4a5b6c7d',
      amountCents: 500,
      currency: 'USD',
      description: 'x',
      expiresAt: new Date(Date.now() + 7 * 86_400_000),
    });
    expect(late.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
  });

  it('from the configuration: STRIPE_API_URL is where calls go, and the buyer returns to the app’s order page', async () => {
    const configured = stripeProviderFromConfig({
      appBaseUrl: 'https://app.riff.example',
      payments: { stripe: { secretKey: 'sk_test_configured', webhookSecret: SECRET, apiUrl: standIn.url } },
    });
    const orderId = '9d4c3f5b-6e7a-4b8c-9d0e-3f4a5b6c7d8e';
    await configured.createCheckout({
      orderId,
      amountCents: 2500,
      currency: 'USD',
      description: 'Vocal chops',
      expiresAt: new Date(Date.now() + 3_600_000),
    });
    const request = standIn.requests.at(-1)!;
    expect(request.headers.authorization).toBe('Bearer sk_test_configured');
    expect(request.form.success_url).toBe(
      `https://app.riff.example/marketplace/orders/${orderId}?checkout=succeeded&session={CHECKOUT_SESSION_ID}`,
    );
    expect(request.form.cancel_url).toBe(`https://app.riff.example/marketplace/orders/${orderId}?checkout=cancelled`);
    expect(() =>
      stripeProviderFromConfig({
        appBaseUrl: 'https://app.riff.example',
        payments: { stripe: { secretKey: 'sk_test_x' } },
      }),
    ).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});

describe('refund', () => {
  it('refunds the payment intent in full with an idempotency key of its own', async () => {
    const { refundId } = await provider.refund({
      paymentId: 'pi_test_42',
      amountCents: 1799,
      currency: 'EUR',
      orderId: ORDER_ID,
    });
    const request = standIn.requests.at(-1)!;
    expect([request.method, request.path]).toEqual(['POST', '/v1/refunds']);
    expect(request.form).toMatchObject({
      payment_intent: 'pi_test_42',
      amount: '1799',
      'metadata[order_id]': ORDER_ID,
    });
    expect(request.headers['idempotency-key']).toBe(`refund-${ORDER_ID}`);
    expect(refundId).toMatch(/^re_test_/);
    const again = await provider.refund({
      paymentId: 'pi_test_42',
      amountCents: 1799,
      currency: 'EUR',
      orderId: ORDER_ID,
    });
    expect(again.refundId).toBe(refundId);
  });
});

/** A Stripe event as the webhook sends it, and its Stripe-Signature header. */
function signed(type: string, object: Record<string, unknown>, options: { secret?: string; timestamp?: number } = {}) {
  const payload = JSON.stringify({
    id: `evt_${type.replaceAll('.', '_')}_${Math.random().toString(36).slice(2)}`,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    data: { object },
  });
  const header = signer.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  return {
    body: Buffer.from(payload),
    headers: { 'stripe-signature': header },
    id: (JSON.parse(payload) as { id: string }).id,
  };
}

const session = (fields: Record<string, unknown> = {}) => ({
  id: 'cs_test_99',
  object: 'checkout.session',
  payment_status: 'paid',
  payment_intent: 'pi_test_99',
  amount_total: 1799,
  currency: 'eur',
  client_reference_id: ORDER_ID,
  metadata: { order_id: ORDER_ID },
  ...fields,
});

async function rejected(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect([(error as AppError).status, (error as AppError).code]).toEqual([401, 'UNAUTHENTICATED']);
}

describe('parseWebhook', () => {
  it('checkout.session.completed (paid) is payment.succeeded with the amount in cents and the payment intent', async () => {
    const event = signed('checkout.session.completed', session());
    expect(await provider.parseWebhook(event.body, event.headers)).toEqual({
      id: event.id,
      type: 'payment.succeeded',
      orderId: ORDER_ID,
      sessionId: 'cs_test_99',
      paymentId: 'pi_test_99',
      amountCents: 1799,
      currency: 'EUR',
    });
    // completed but not yet paid (an asynchronous method): nothing to do yet
    const unpaid = signed('checkout.session.completed', session({ payment_status: 'unpaid' }));
    expect(await provider.parseWebhook(unpaid.body, unpaid.headers)).toBeNull();
    const later = signed('checkout.session.async_payment_succeeded', session());
    expect(await provider.parseWebhook(later.body, later.headers)).toMatchObject({
      type: 'payment.succeeded',
      orderId: ORDER_ID,
    });
  });

  it('expired and async_payment_failed sessions are payment.failed; the order is found by client_reference_id too', async () => {
    const expired = signed('checkout.session.expired', session({ payment_status: 'unpaid', payment_intent: null }));
    expect(await provider.parseWebhook(expired.body, expired.headers)).toEqual({
      id: expired.id,
      type: 'payment.failed',
      orderId: ORDER_ID,
      sessionId: 'cs_test_99',
      reason: 'The checkout expired',
    });
    const failed = signed('checkout.session.async_payment_failed', session({ payment_status: 'unpaid', metadata: {} }));
    expect(await provider.parseWebhook(failed.body, failed.headers)).toMatchObject({
      type: 'payment.failed',
      orderId: ORDER_ID,
      reason: 'The payment failed',
    });
  });

  it('charge.refunded is refund.succeeded; without metadata on the charge the order comes from its payment intent', async () => {
    const withMetadata = signed('charge.refunded', {
      id: 'ch_test_1',
      object: 'charge',
      refunded: true,
      payment_intent: 'pi_test_99',
      metadata: { order_id: ORDER_ID },
      refunds: { object: 'list', data: [{ id: 're_test_77', object: 'refund' }] },
    });
    expect(await provider.parseWebhook(withMetadata.body, withMetadata.headers)).toEqual({
      id: withMetadata.id,
      type: 'refund.succeeded',
      orderId: ORDER_ID,
      paymentId: 'pi_test_99',
      refundId: 're_test_77',
    });
    standIn.paymentIntents.set('pi_test_100', { order_id: ORDER_ID });
    const bare = signed('charge.refunded', {
      id: 'ch_test_2',
      object: 'charge',
      refunded: true,
      payment_intent: 'pi_test_100',
      metadata: {},
    });
    expect(await provider.parseWebhook(bare.body, bare.headers)).toMatchObject({
      type: 'refund.succeeded',
      orderId: ORDER_ID,
      paymentId: 'pi_test_100',
      refundId: 're_for_ch_test_2',
    });
    // a partial refund does not refund the order
    const partial = signed('charge.refunded', {
      id: 'ch_test_3',
      object: 'charge',
      refunded: false,
      payment_intent: 'pi_test_99',
      metadata: { order_id: ORDER_ID },
    });
    expect(await provider.parseWebhook(partial.body, partial.headers)).toBeNull();
  });

  it('other event types are null', async () => {
    const other = signed('customer.created', { id: 'cus_1', object: 'customer' });
    expect(await provider.parseWebhook(other.body, other.headers)).toBeNull();
  });

  it('a missing, tampered, wrongly keyed or old signature is 401', async () => {
    const event = signed('checkout.session.completed', session());
    await rejected(provider.parseWebhook(event.body, {}));
    await rejected(provider.parseWebhook(event.body, { 'stripe-signature': 'nonsense' }));
    const tampered = Buffer.from(event.body.toString('utf8').replace('1799', '1'));
    await rejected(provider.parseWebhook(tampered, event.headers));
    const otherSecret = signed('checkout.session.completed', session(), { secret: 'whsec_someone_else' });
    await rejected(provider.parseWebhook(otherSecret.body, otherSecret.headers));
    // Stripe's tolerance is 5 minutes
    const old = signed('checkout.session.completed', session(), { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await rejected(provider.parseWebhook(old.body, old.headers));
    // the untouched event still verifies
    expect(await provider.parseWebhook(event.body, event.headers)).toMatchObject({ type: 'payment.succeeded' });
  });
});

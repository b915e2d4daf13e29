import type Stripe from 'stripe';
import { unauthenticated } from '../../../platform/errors/app-error.js';
import type { Checkout, CheckoutRequest, PaymentEvent, PaymentProvider } from './payment-provider.js';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Where API calls go (config STRIPE_API_URL: a local stand-in in tests); Stripe's own when unset. */
  apiUrl?: string;
  /**
   * Where Stripe's hosted page sends the buyer back: `{ORDER_ID}` is replaced here, `{CHECKOUT_SESSION_ID}`
   * by Stripe.
   */
  successUrl: string;
  cancelUrl: string;
  /** Now, for the limits on a session's expiry (tests pass their own). */
  now?: () => Date;
}

/** Stripe accepts a Checkout Session expiry between 30 minutes and 24 hours ahead. */
const MIN_EXPIRY_MS = 30 * 60_000 + 60_000;
const MAX_EXPIRY_MS = 24 * 3_600_000 - 60_000;

function endpoint(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * PAYMENT_PROVIDER=stripe: one Checkout Session per order (amounts in
 * integer cents, the order id as metadata, client_reference_id and idempotency key), webhooks
 * verified with Stripe's signature, refunds idempotent per order.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  /** The client, loaded at construction but awaited only when used (the package took a sixth of a second of every start). */
  private readonly client: Promise<Stripe>;

  constructor(private readonly options: StripeProviderOptions) {
    this.client = import('stripe').then(
      ({ default: StripeClient }) =>
        new StripeClient(options.secretKey, {
          ...endpoint(options.apiUrl),
          maxNetworkRetries: 2,
          timeout: 20_000,
          telemetry: false,
        }),
    );
    // a failed load is reported by the first call that needs the client, not as an unhandled rejection
    this.client.catch(() => undefined);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const now = (this.options.now ?? (() => new Date()))().getTime();
    const expiresMs = Math.min(Math.max(request.expiresAt.getTime(), now + MIN_EXPIRY_MS), now + MAX_EXPIRY_MS);
    const stripe = await this.client;
    const session = await stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.amountCents,
              product_data: { name: request.description.trim().slice(0, 250) || 'Riff order' },
            },
          },
        ],
        client_reference_id: request.orderId,
        metadata: { order_id: request.orderId },
        payment_intent_data: { metadata: { order_id: request.orderId } },
        ...(request.buyerEmail ? { customer_email: request.buyerEmail } : {}),
        expires_at: Math.floor(expiresMs / 1000),
        success_url: this.options.successUrl.replaceAll('{ORDER_ID}', request.orderId),
        cancel_url: this.options.cancelUrl.replaceAll('{ORDER_ID}', request.orderId),
      },
      { idempotencyKey: request.orderId },
    );
    if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
    return { sessionId: session.id, checkoutUrl: session.url, expiresAt: new Date(session.expires_at * 1000) };
  }

  async parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<PaymentEvent | null> {
    const header = headers['stripe-signature'];
    const signature = Array.isArray(header) ? header[0] : header;
    if (!signature) throw unauthenticated('Stripe-Signature is missing');
    const stripe = await this.client;
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature, this.options.webhookSecret);
    } catch {
      throw unauthenticated('The Stripe signature does not verify');
    }
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // completed with payment_status unpaid: an asynchronous method still under way
        if (session.payment_status !== 'paid') return null;
        const paymentId = idOf(session.payment_intent);
        const orderId = session.metadata?.order_id ?? session.client_reference_id;
        if (!orderId || !paymentId) return null;
        return {
          id: event.id,
          type: 'payment.succeeded',
          orderId,
          sessionId: session.id,
          paymentId,
          amountCents: session.amount_total ?? 0,
          currency: (session.currency ?? '').toUpperCase(),
        };
      }
      case 'checkout.session.expired':
      case 'checkout.session.async_payment_failed': {
        const session = event.data.object;
        const orderId = session.metadata?.order_id ?? session.client_reference_id;
        if (!orderId) return null;
        const reason = event.type === 'checkout.session.expired' ? 'The checkout expired' : 'The payment failed';
        return { id: event.id, type: 'payment.failed', orderId, sessionId: session.id, reason };
      }
      case 'charge.refunded': {
        const charge = event.data.object;
        // Riff refunds in full; a partial refund made on Stripe's dashboard does not refund the order
        if (!charge.refunded) return null;
        const paymentId = idOf(charge.payment_intent);
        if (!paymentId) return null;
        const orderId =
          charge.metadata?.order_id || (await stripe.paymentIntents.retrieve(paymentId)).metadata?.order_id;
        if (!orderId) return null;
        const refundId =
          charge.refunds?.data[0]?.id ?? (await stripe.refunds.list({ charge: charge.id, limit: 1 })).data[0]?.id;
        if (!refundId) return null;
        return { id: event.id, type: 'refund.succeeded', orderId, paymentId, refundId };
      }
      default:
        return null;
    }
  }

  async refund(payment: {
    paymentId: string;
    amountCents: number;
    currency: string;
    orderId: string;
  }): Promise<{ refundId: string }> {
    // a key of its own: Stripe's keys are per account, and the order id already keyed the checkout
    const stripe = await this.client;
    const refund = await stripe.refunds.create(
      { payment_intent: payment.paymentId, amount: payment.amountCents, metadata: { order_id: payment.orderId } },
      { idempotencyKey: `refund-${payment.orderId}` },
    );
    return { refundId: refund.id };
  }
}

/** The Stripe provider from the configuration (PAYMENT_PROVIDER=stripe); the buyer comes back to the app's order page. */
export function stripeProviderFromConfig(config: {
  appBaseUrl: string;
  payments: {
    stripe: { secretKey?: string | undefined; webhookSecret?: string | undefined; apiUrl?: string | undefined };
  };
}): StripeProvider {
  const { secretKey, webhookSecret, apiUrl } = config.payments.stripe;
  if (!secretKey || !webhookSecret)
    throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  return new StripeProvider({
    secretKey,
    webhookSecret,
    ...(apiUrl ? { apiUrl } : {}),
    successUrl: `${config.appBaseUrl}/marketplace/orders/{ORDER_ID}?checkout=succeeded&session={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${config.appBaseUrl}/marketplace/orders/{ORDER_ID}?checkout=cancelled`,
  });
}

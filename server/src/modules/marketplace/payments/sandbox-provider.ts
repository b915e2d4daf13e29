import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import { badRequest, unauthenticated } from '../../../platform/errors/app-error.js';
import { signCallback, verifyCallback } from '../../media/callback-signature.js';
import type { Checkout, CheckoutRequest, PaymentEvent, PaymentProvider } from './payment-provider.js';

/** The event the sandbox sends, as a provider's JSON (what parseWebhook reads back after the signature). */
export interface SandboxEventBody {
  id: string;
  type: 'payment.succeeded' | 'payment.failed';
  created: number;
  data: {
    order_id: string;
    session_id: string;
    payment_id?: string;
    amount_cents?: number;
    currency?: string;
    reason?: string;
  };
}

/** The signing secret, as Standard Webhooks writes one: derived from SECRET_KEY (KeyRing 'payment-sandbox'). */
export const sandboxSecret = (key: Buffer) => `whsec_${key.toString('base64')}`;

/** Headers of a signed delivery of `body` (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature). */
export function signSandboxDelivery(
  secret: string,
  eventId: string,
  body: string,
  nowSeconds: number,
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': eventId,
    'webhook-timestamp': String(nowSeconds),
    'webhook-signature': signCallback(secret, eventId, nowSeconds, body),
    'user-agent': 'Riff-Sandbox-Payments/1.0',
  };
}

/** The payment id the sandbox gives a paid checkout (stable: a replayed outcome names the same payment). */
export const sandboxPaymentId = (sessionId: string) => `sbxpay_${sessionId.slice('sbx_'.length)}`;

/**
 * The built-in provider (PAYMENT_PROVIDER=sandbox): its hosted page is GET
 * /marketplace/sandbox/checkout/{paymentId} on this service (sandbox-checkout.ts), from which it
 * delivers signed events to the webhook like a real provider; refunds succeed at once.
 */
export function createSandboxProvider(deps: { secret: string; publicBaseUrl: string; clock: Clock }): PaymentProvider {
  return {
    name: 'sandbox',
    async createCheckout(request: CheckoutRequest): Promise<Checkout> {
      const sessionId = `sbx_${randomBytes(16).toString('hex')}`;
      return {
        sessionId,
        checkoutUrl: `${deps.publicBaseUrl}/api/v1/marketplace/sandbox/checkout/${sessionId}`,
        expiresAt: request.expiresAt,
      };
    },
    async parseWebhook(rawBody, headers): Promise<PaymentEvent | null> {
      if (
        !verifyCallback(
          deps.secret,
          headers as Record<string, string | string[] | undefined>,
          rawBody,
          Math.floor(deps.clock.now().getTime() / 1000),
        )
      ) {
        throw unauthenticated('The payment event’s signature is missing or not valid');
      }
      let body: SandboxEventBody;
      try {
        body = JSON.parse(rawBody.toString('utf8')) as SandboxEventBody;
      } catch {
        throw badRequest('The payment event is not JSON');
      }
      const data = body?.data;
      if (typeof body?.id !== 'string' || typeof data?.order_id !== 'string' || typeof data.session_id !== 'string') {
        throw badRequest('The payment event is malformed');
      }
      if (body.type === 'payment.succeeded') {
        return {
          id: body.id,
          type: 'payment.succeeded',
          orderId: data.order_id,
          sessionId: data.session_id,
          paymentId: String(data.payment_id),
          amountCents: Number(data.amount_cents),
          currency: String(data.currency),
        };
      }
      if (body.type === 'payment.failed') {
        return {
          id: body.id,
          type: 'payment.failed',
          orderId: data.order_id,
          sessionId: data.session_id,
          reason: String(data.reason ?? 'declined'),
        };
      }
      return null;
    },
    async refund(payment) {
      // idempotent per order, as a provider's refund with the order id as idempotency key
      return { refundId: `sbxre_${createHash('sha256').update(payment.orderId).digest('hex').slice(0, 24)}` };
    },
  };
}

/** A fresh event id, for events that are not tied to one outcome. */
export const sandboxEventId = () => `evt_${randomUUID().replaceAll('-', '')}`;

import type { PaymentProviderName } from '@riff/contract';

/** What the orders part asks a provider to collect: one checkout per order, amounts in integer cents. */
export interface CheckoutRequest {
  orderId: string;
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** Shown on the provider's page: the order's item titles. */
  description: string;
  buyerEmail?: string;
  expiresAt: Date;
}

/** The provider's side of a checkout: its id (kept as orders.payment_session_id) and where the buyer pays. */
export interface Checkout {
  sessionId: string;
  checkoutUrl: string;
  expiresAt: Date;
}

/** A provider event that changes an order, read from a webhook whose signature was verified. */
export type PaymentEvent =
  | {
      id: string;
      type: 'payment.succeeded';
      orderId: string;
      sessionId: string;
      paymentId: string;
      amountCents: number;
      currency: string;
    }
  | { id: string; type: 'payment.failed'; orderId: string; sessionId: string; reason: string }
  | { id: string; type: 'refund.succeeded'; orderId: string; paymentId: string; refundId: string };

/**
 * A payment provider, chosen by PAYMENT_PROVIDER: sandbox (the default, built in, so a newcomer can
 * buy without an account anywhere) or stripe. The provider's webhook is the only way an order
 * completes or fails; `parseWebhook`
 * verifies the signature (an UnauthorizedError otherwise) and returns null for event types Riff ignores.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  parseWebhook(
    rawBody: Buffer,
    headers: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<PaymentEvent | null>;
  /** Refunds a payment in full; idempotent per key (the order id). */
  refund(payment: {
    paymentId: string;
    amountCents: number;
    currency: string;
    orderId: string;
  }): Promise<{ refundId: string }>;
}

import { REFUND_WINDOW_DAYS } from '@riff/contract';
import type { Logger } from 'pino';
import { systemActor, type Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import type { PeopleReader } from '../users/people-reader.js';
import { receiptMail } from './order-mail.js';
import type { OrderSettlementRepository } from './order-settlement.repository.js';
import type { OrderItemRow, OrderRow, OrdersRepository } from './orders.repository.js';
import type { PaymentEvent, PaymentProvider } from './payments/payment-provider.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPIRY_BATCH = 100;

export interface OrderSettlementDeps {
  scope: DbScope;
  clock: Clock;
  logger: Logger;
  events: EventBus;
  mail: MailQueue;
  people: PeopleReader;
  orders: OrdersRepository;
  settlement: OrderSettlementRepository;
  provider: PaymentProvider;
  appBaseUrl: string;
}

/** Whether an item sells the product's exclusive license (a license of that type, or an exclusive product without licenses). */
export const isExclusiveItem = (
  item: Pick<OrderItemRow, 'license_type' | 'license_id'>,
  productLicenseType: string | null,
) =>
  item.license_type === 'exclusive' ||
  (item.license_id === null && item.license_type === null && productLicenseType === 'exclusive');

/**
 * How an order ends: completed (one transaction: licenses granted, promo redemption counted, an
 * exclusive sold, counters, events, receipt), failed (holds released), refunded. Only a verified
 * provider event, a total of 0, or the expiry job gets here.
 */
export class OrderSettlement {
  constructor(private readonly deps: OrderSettlementDeps) {}

  /** Applies a verified provider event once (payment_events), in one transaction with its effects. */
  async apply(event: PaymentEvent): Promise<'applied' | 'replayed'> {
    const { scope, settlement, provider, orders, logger } = this.deps;
    return scope.transaction(async () => {
      const known = await settlement.orderExists(event.orderId);
      if (!(await settlement.recordEvent(provider.name, event.id, event.type, known ? event.orderId : null)))
        return 'replayed';
      const order = known ? await orders.findForUpdate(event.orderId) : undefined;
      if (!order || order.payment_provider !== provider.name) {
        logger.warn({ eventId: event.id, orderId: event.orderId }, 'payment event for an unknown order: ignored');
        return 'applied';
      }
      if (event.type === 'payment.succeeded') await this.paid(order, event);
      else if (event.type === 'payment.failed') await this.fail(order, event.reason);
      else if (order.status === 'completed')
        await this.refunded(systemActor(), order, `refunded at the provider (${event.refundId})`);
      return 'applied';
    });
  }

  private async paid(order: OrderRow, event: Extract<PaymentEvent, { type: 'payment.succeeded' }>): Promise<void> {
    const { logger, provider, settlement } = this.deps;
    if (
      event.sessionId !== order.payment_session_id ||
      event.amountCents !== Number(order.total_cents) ||
      event.currency.toUpperCase() !== order.currency
    ) {
      logger.error(
        { orderId: order.id, eventId: event.id },
        'payment event does not match its order (session, amount or currency): not applied',
      );
      return;
    }
    if (order.status === 'pending' && (await this.holdsIntact(order))) {
      await this.complete(order, event.paymentId);
      return;
    }
    // an exclusive hold lost after the payment window closed (taken by another buyer): the order cannot be delivered
    if (order.status === 'pending') await this.fail(order, 'expired: the exclusive license was taken meanwhile');
    const current = (await this.deps.orders.find(order.id))!;
    if (current.status === 'failed' && current.payment_status !== 'refunded') {
      // paid after the order expired: nothing was sold, so the money goes back (a failed refund rolls back and the provider retries)
      await provider.refund({
        paymentId: event.paymentId,
        amountCents: Number(order.total_cents),
        currency: order.currency,
        orderId: order.id,
      });
      await settlement.markLatePaymentRefunded(order.id, event.paymentId);
      logger.warn({ orderId: order.id }, 'payment arrived after the order expired: refunded');
    }
  }

  /** Whether every exclusive item of the order still holds its product. */
  private async holdsIntact(order: OrderRow): Promise<boolean> {
    const { orders } = this.deps;
    const items = await orders.itemsOf([order.id]);
    const products = new Map(
      (await orders.findProducts(items.map((item) => item.product_id))).map((product) => [product.id, product]),
    );
    const exclusive = items.filter((item) =>
      isExclusiveItem(item, products.get(item.product_id)?.license_type ?? null),
    );
    const holds = await orders.findHolds(exclusive.map((item) => item.product_id));
    return exclusive.every((item) =>
      holds.some((hold) => hold.product_id === item.product_id && hold.order_id === order.id && !hold.sold),
    );
  }

  /** Completion: joins the caller's transaction (order creation for a total of 0, or the webhook's). */
  async complete(order: OrderRow, paymentId: string | null): Promise<OrderRow> {
    const { scope, clock, settlement, orders, events, mail, people, appBaseUrl } = this.deps;
    return scope.transaction(async () => {
      const now = clock.now();
      const done = await settlement.markCompleted(
        order.id,
        paymentId,
        now,
        new Date(now.getTime() + REFUND_WINDOW_DAYS * DAY_MS),
      );
      if (!done) return (await orders.find(order.id))!;
      const items = await orders.itemsOf([order.id]);
      if (done.buyer_id) await settlement.grantLicenses(done.buyer_id, items);
      await settlement.addSales(
        items.map((item) => item.product_id),
        1,
      );
      if (done.promo_code_id) await settlement.redeem(done.promo_code_id);
      const products = new Map(
        (await orders.findProducts(items.map((item) => item.product_id))).map((product) => [product.id, product]),
      );
      for (const item of items) {
        if (isExclusiveItem(item, products.get(item.product_id)?.license_type ?? null))
          await settlement.sellExclusive(item.product_id, order.id);
      }
      const actor = systemActor();
      const productIds = items.map((item) => item.product_id);
      await events.record(actor, 'order.completed', {
        subject: { resource: 'order', id: order.id },
        userId: done.buyer_id,
        data: { total_cents: Number(done.total_cents), currency: done.currency, product_ids: productIds },
      });
      for (const item of items) {
        await events.record(actor, 'product.sold', {
          subject: { resource: 'product', id: item.product_id },
          userId: item.seller_id,
          data: {
            order_id: order.id,
            order_item_id: item.id,
            license_type: item.license_type,
            price_cents: Number(item.price_cents),
            currency: done.currency,
          },
        });
      }
      const buyer = done.buyer_id ? await people.findActive(done.buyer_id) : undefined;
      if (buyer?.email) await mail.send(receiptMail(buyer.email, buyer.username, done, items, appBaseUrl));
      return done;
    });
  }

  /** A pending order that will not be paid: failed, its holds released. */
  async fail(order: OrderRow, reason: string): Promise<void> {
    const { scope, settlement, events } = this.deps;
    await scope.transaction(async () => {
      const failed = await settlement.markFailed(order.id, reason);
      if (!failed) return;
      await settlement.releaseHolds(order.id);
      await events.record(systemActor(), 'order.failed', {
        subject: { resource: 'order', id: order.id },
        userId: failed.buyer_id,
        data: { reason },
      });
    });
  }

  /** The refund's effects (the provider has refunded): licenses revoked, an exclusive back on sale. */
  async refunded(actor: Actor, order: OrderRow, reason: string | null): Promise<OrderRow | undefined> {
    const { scope, clock, settlement, orders, events } = this.deps;
    return scope.transaction(async () => {
      const now = clock.now();
      const refunded = await settlement.markRefunded(order.id, now, reason);
      if (!refunded) return undefined;
      await settlement.revokeGrants(order.id, now);
      const items = await orders.itemsOf([order.id]);
      await settlement.addSales(
        items.map((item) => item.product_id),
        -1,
      );
      for (const item of items) await settlement.unsellExclusive(item.product_id, order.id);
      // the buyer has the money back: the code's use returns to the pool
      if (refunded.promo_code_id) await settlement.redeem(refunded.promo_code_id, -1);
      await events.record(actor, 'order.refunded', {
        subject: { resource: 'order', id: order.id },
        userId: refunded.buyer_id,
        data: { total_cents: Number(refunded.total_cents), currency: refunded.currency, reason },
      });
      return refunded;
    });
  }

  /** A suspended or banned buyer's pending orders fail and release their holds: they cannot pay them now. */
  async failPendingOf(buyerId: string, reason: string): Promise<{ failed: number }> {
    const { orders, scope } = this.deps;
    let failed = 0;
    for (const { id } of await orders.pendingOfBuyer(buyerId)) {
      await scope.transaction(async () => {
        const order = await orders.findForUpdate(id);
        if (order?.status !== 'pending') return;
        await this.fail(order, reason);
        failed++;
      });
    }
    return { failed };
  }

  /** The periodic job: pending orders past their payment window fail and release their holds. */
  async expirePending(): Promise<{ expired: number }> {
    const { orders, scope, clock } = this.deps;
    let expired = 0;
    for (;;) {
      const due = await orders.expiredPending(clock.now(), EXPIRY_BATCH);
      for (const { id } of due) {
        await scope.transaction(async () => {
          const order = await orders.findForUpdate(id);
          if (order?.status !== 'pending') return;
          await this.fail(order, 'expired: not paid in time');
          expired++;
        });
      }
      if (due.length < EXPIRY_BATCH) return { expired };
    }
  }
}

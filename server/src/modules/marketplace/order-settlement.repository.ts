import type { PaymentProviderName } from '@riff/contract';
import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { OrderItemRow } from './orders.repository.js';

/** The writes that settle an order: payment events, completion, failure, refund (one unit of work each). */
export class OrderSettlementRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Records a provider event; false when it was applied before (the webhook is idempotent per event id). */
  async recordEvent(
    provider: PaymentProviderName,
    eventId: string,
    type: string,
    orderId: string | null,
  ): Promise<boolean> {
    const row = await this.db
      .insertInto('payment_events')
      .values({ provider, event_id: eventId, type, order_id: orderId })
      .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
      .returning('event_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async orderExists(id: string): Promise<boolean> {
    return (await this.db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  markCompleted(orderId: string, paymentId: string | null, now: Date, refundDeadline: Date) {
    return this.db
      .updateTable('orders')
      .set({
        status: 'completed',
        payment_status: 'succeeded',
        payment_provider_payment_id: paymentId,
        completed_at: now,
        refund_deadline: refundDeadline,
        checkout_url: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', orderId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
  }

  grantLicenses(buyerId: string, items: OrderItemRow[]) {
    return this.db
      .insertInto('license_grants')
      .values(
        items.map((item) => ({
          order_item_id: item.id,
          order_id: item.order_id,
          buyer_id: buyerId,
          product_id: item.product_id,
          license_type: item.license_type,
        })),
      )
      .onConflict((oc) => oc.column('order_item_id').doNothing())
      .execute();
  }

  addSales(productIds: readonly string[], delta: 1 | -1) {
    if (productIds.length === 0) return Promise.resolve();
    return this.db
      .updateTable('products')
      .set({ sales_count: sql`greatest(sales_count + ${delta}, 0)` })
      .where('id', 'in', productIds)
      .execute();
  }

  /**
   * One redemption of the code counted (+1: reserved when the order was made, so within
   * max_redemptions) or given back (-1: the order was refunded).
   */
  redeem(promoCodeId: string, delta: 1 | -1 = 1) {
    return this.db
      .updateTable('promo_codes')
      .set({ redemption_count: sql`greatest(redemption_count + ${delta}, 0)` })
      .where('id', '=', promoCodeId)
      .execute();
  }

  /** An exclusive license sold: the hold becomes the sale, the product leaves the shop, its licenses with it. */
  async sellExclusive(productId: string, orderId: string) {
    await this.db
      .updateTable('exclusive_holds')
      .set({ sold: true, expires_at: null })
      .where('product_id', '=', productId)
      .where('order_id', '=', orderId)
      .execute();
    await this.db
      .updateTable('products')
      .set({ status: 'archived', updated_at: sql`now()` })
      .where('id', '=', productId)
      .execute();
    await this.db
      .updateTable('product_licenses')
      .set({ is_available: false, updated_at: sql`now()` })
      .where('product_id', '=', productId)
      .execute();
  }

  /** A refunded exclusive sale: the product is on sale again. */
  async unsellExclusive(productId: string, orderId: string) {
    const released = await this.db
      .deleteFrom('exclusive_holds')
      .where('product_id', '=', productId)
      .where('order_id', '=', orderId)
      .returning('product_id')
      .executeTakeFirst();
    if (!released) return;
    await this.db
      .updateTable('products')
      .set({ status: 'active', updated_at: sql`now()` })
      .where('id', '=', productId)
      .where('status', '=', 'archived')
      .execute();
    await this.db
      .updateTable('product_licenses')
      .set({ is_available: true, updated_at: sql`now()` })
      .where('product_id', '=', productId)
      .execute();
  }

  releaseHolds(orderId: string) {
    return this.db.deleteFrom('exclusive_holds').where('order_id', '=', orderId).where('sold', '=', false).execute();
  }

  markFailed(orderId: string, reason: string) {
    return this.db
      .updateTable('orders')
      .set({
        status: 'failed',
        payment_status: 'failed',
        failure_reason: reason,
        checkout_url: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', orderId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
  }

  /** A payment that arrived for an order that had already failed (expired): it was refunded. */
  markLatePaymentRefunded(orderId: string, paymentId: string) {
    return this.db
      .updateTable('orders')
      .set({ payment_status: 'refunded', payment_provider_payment_id: paymentId, updated_at: sql`now()` })
      .where('id', '=', orderId)
      .where('status', '=', 'failed')
      .execute();
  }

  markRefunded(orderId: string, now: Date, reason: string | null) {
    return this.db
      .updateTable('orders')
      .set({
        status: 'refunded',
        payment_status: 'refunded',
        refunded_at: now,
        refund_reason: reason,
        updated_at: sql`now()`,
      })
      .where('id', '=', orderId)
      .where('status', '=', 'completed')
      .returningAll()
      .executeTakeFirst();
  }

  revokeGrants(orderId: string, now: Date) {
    return this.db
      .updateTable('license_grants')
      .set({ revoked_at: now })
      .where('order_id', '=', orderId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}

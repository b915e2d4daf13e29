import type { ProductLicenseType } from '@riff/contract';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type OrderRow = Selectable<Database['orders']>;
export type OrderItemRow = Selectable<Database['order_items']>;
export type ProductRow = Selectable<Database['products']>;
export type LicenseRow = Selectable<Database['product_licenses']>;
export type PromoCodeRow = Selectable<Database['promo_codes']>;

/** Orders and what they read of products, licenses and promo codes (same area): all SQL of the order side. */
export interface OrderSales {
  currency: string;
  completedAt: Date | null;
  items: { id: string; seller_id: string | null; track_id: string | null; net_cents: number }[];
}

export class OrdersRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /**
   * What each of these orders sold, for analytics: its items' sellers, the track each product
   * sells (null for other products), what the item brought after its discount, and when the order
   * completed (null while it has not).
   */
  async sales(orderIds: readonly string[]): Promise<Map<string, OrderSales>> {
    if (orderIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('order_items as item')
      .innerJoin('orders', 'orders.id', 'item.order_id')
      .leftJoin('products', 'products.id', 'item.product_id')
      .select([
        'item.order_id',
        'item.id',
        'item.seller_id',
        'products.track_id',
        'item.price_cents',
        'item.discount_cents',
        'orders.currency',
        'orders.completed_at',
      ])
      .where('item.order_id', 'in', [...new Set(orderIds)])
      .execute();
    const sales = new Map<string, OrderSales>();
    for (const row of rows) {
      const order = sales.get(row.order_id) ?? { currency: row.currency, completedAt: row.completed_at, items: [] };
      order.items.push({
        id: row.id,
        seller_id: row.seller_id,
        track_id: row.track_id ?? null,
        net_cents: Number(row.price_cents) - Number(row.discount_cents),
      });
      sales.set(row.order_id, order);
    }
    return sales;
  }

  /** The platform's figures since then: orders completed, their totals by currency, orders refunded. */
  async figures(since: Date): Promise<{ orders: number; revenue: Record<string, number>; refunds: number }> {
    const completed = await this.db
      .selectFrom('orders')
      .select((eb) => ['currency', eb.fn.countAll<string>().as('n'), eb.fn.sum<string>('total_cents').as('cents')])
      .where('completed_at', '>=', since)
      .groupBy('currency')
      .execute();
    const refunded = await this.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('refunded_at', '>=', since)
      .executeTakeFirstOrThrow();
    return {
      orders: completed.reduce((sum, row) => sum + Number(row.n), 0),
      revenue: Object.fromEntries(completed.map((row) => [row.currency, Number(row.cents)])),
      refunds: Number(refunded.n),
    };
  }

  findProducts(ids: readonly string[]) {
    if (ids.length === 0) return Promise.resolve([] as ProductRow[]);
    return this.db.selectFrom('products').selectAll().where('id', 'in', ids).execute();
  }

  findLicenses(productIds: readonly string[]) {
    if (productIds.length === 0) return Promise.resolve([] as LicenseRow[]);
    return this.db.selectFrom('product_licenses').selectAll().where('product_id', 'in', productIds).execute();
  }

  /** The seller's code among `sellerIds`, locked: redemptions are reserved under this lock. */
  findPromoCodeForUpdate(codeKey: string, sellerIds: readonly string[]) {
    return this.db
      .selectFrom('promo_codes')
      .selectAll()
      .where('code_key', '=', codeKey)
      .where('seller_id', 'in', sellerIds)
      .orderBy('created_at')
      .forUpdate()
      .executeTakeFirst();
  }

  async promoProductIds(promoCodeId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('promo_code_products')
      .select('product_id')
      .where('promo_code_id', '=', promoCodeId)
      .execute();
    return new Set(rows.map((row) => row.product_id));
  }

  /** Orders still waiting for payment with this code: each holds one redemption until it completes or fails. */
  async pendingWithPromo(promoCodeId: string): Promise<number> {
    const row = await this.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('promo_code_id', '=', promoCodeId)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  insertOrder(row: Insertable<Database['orders']>) {
    return this.db.insertInto('orders').values(row).returningAll().executeTakeFirstOrThrow();
  }

  insertItems(rows: Insertable<Database['order_items']>[]) {
    return this.db.insertInto('order_items').values(rows).returningAll().execute();
  }

  setCheckout(orderId: string, checkout: { sessionId: string; checkoutUrl: string; expiresAt: Date }) {
    return this.db
      .updateTable('orders')
      .set({
        payment_session_id: checkout.sessionId,
        checkout_url: checkout.checkoutUrl,
        payment_expires_at: checkout.expiresAt,
        updated_at: sql`now()`,
      })
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Takes the product's exclusive hold for the order: the product id is the key, so of concurrent
   * takers one wins; a hold left by an order that expired without being released is taken over.
   */
  async takeHold(productId: string, orderId: string, expiresAt: Date, now: Date): Promise<boolean> {
    const row = await this.db
      .insertInto('exclusive_holds')
      .values({ product_id: productId, order_id: orderId, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .column('product_id')
          .doUpdateSet({ order_id: orderId, expires_at: expiresAt, sold: false })
          .where('exclusive_holds.sold', '=', false)
          .where('exclusive_holds.expires_at', '<', now),
      )
      .returning('product_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  findHolds(productIds: readonly string[]) {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('exclusive_holds').selectAll().where('product_id', 'in', productIds).execute();
  }

  find(id: string) {
    return this.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findForUpdate(id: string) {
    return this.db.selectFrom('orders').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  findBySession(sessionId: string) {
    return this.db.selectFrom('orders').selectAll().where('payment_session_id', '=', sessionId).executeTakeFirst();
  }

  listForBuyer(buyerId: string) {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where('buyer_id', '=', buyerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1000)
      .execute();
  }

  /** Orders with an item the seller sold, newest first. */
  listForSeller(sellerId: string) {
    return this.db
      .selectFrom('orders')
      .selectAll()
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('order_items')
            .select('order_items.id')
            .whereRef('order_items.order_id', '=', 'orders.id')
            .where('order_items.seller_id', '=', sellerId),
        ),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(10_000)
      .execute();
  }

  itemsOf(orderIds: readonly string[]) {
    if (orderIds.length === 0) return Promise.resolve([] as OrderItemRow[]);
    return this.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The buyer's pending orders (a sanctioned buyer's end as failed). */
  pendingOfBuyer(buyerId: string) {
    return this.db
      .selectFrom('orders')
      .select('id')
      .where('buyer_id', '=', buyerId)
      .where('status', '=', 'pending')
      .orderBy('created_at')
      .execute();
  }

  /** Pending orders whose payment window closed. */
  expiredPending(now: Date, limit: number) {
    return this.db
      .selectFrom('orders')
      .select('id')
      .where('status', '=', 'pending')
      .where('payment_expires_at', '<', now)
      .orderBy('payment_expires_at')
      .limit(limit)
      .execute();
  }
}

/** The license an item buys: the one named, else the cheapest available; none when the product has no licenses. */
export function pickLicense(
  licenses: LicenseRow[],
  type: ProductLicenseType | undefined,
): LicenseRow | 'unavailable' | 'unknown' | undefined {
  if (licenses.length === 0) return type ? 'unknown' : undefined;
  if (type) {
    const named = licenses.find((license) => license.license_type === type);
    if (!named) return 'unknown';
    return named.is_available ? named : 'unavailable';
  }
  const available = licenses.filter((license) => license.is_available);
  if (available.length === 0) return 'unavailable';
  return available.reduce((best, license) => (license.price_cents < best.price_cents ? license : best));
}

import { sql, type ExpressionBuilder } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

type Sold = ExpressionBuilder<Database & { i: Database['order_items']; o: Database['orders'] }, 'i' | 'o'>;

/** A seller's items of orders completed since `since` (all time without it), in SQL aggregates. */
export class SellerStatsRepository {
  constructor(private readonly scope: DbScope) {}

  private sold(sellerId: string, since: Date | undefined) {
    return this.scope.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .where('i.seller_id', '=', sellerId)
      .where('o.status', 'in', ['completed', 'refunded'])
      .where('o.completed_at', 'is not', null)
      .$if(since !== undefined, (query) => query.where('o.completed_at', '>=', since!));
  }

  /** Net of the discount, for the items of orders not refunded. */
  private static revenue(eb: Sold) {
    return sql<number>`coalesce(sum(${eb.ref('i.price_cents')} - ${eb.ref('i.discount_cents')}) filter (where ${eb.ref('o.status')} = 'completed'), 0)::bigint`;
  }

  byCurrency(sellerId: string, since: Date | undefined) {
    return this.sold(sellerId, since)
      .select((eb) => [
        'o.currency',
        sql<number>`count(distinct ${eb.ref('o.id')})::bigint`.as('orders'),
        sql<number>`count(distinct ${eb.ref('o.id')}) filter (where ${eb.ref('o.status')} = 'refunded')::bigint`.as(
          'refunds',
        ),
        sql<number>`count(*) filter (where ${eb.ref('o.status')} = 'completed')::bigint`.as('units'),
        SellerStatsRepository.revenue(eb).as('revenue_cents'),
      ])
      .groupBy('o.currency')
      .orderBy('o.currency')
      .execute();
  }

  topProducts(sellerId: string, since: Date | undefined, limit: number) {
    return this.sold(sellerId, since)
      .where('o.status', '=', 'completed')
      .select((eb) => [
        'i.product_id',
        sql<string>`max(${eb.ref('i.title')})`.as('title'),
        sql<number>`count(*)::bigint`.as('units'),
        SellerStatsRepository.revenue(eb).as('revenue_cents'),
      ])
      .groupBy('i.product_id')
      .orderBy('units', 'desc')
      .orderBy('revenue_cents', 'desc')
      .orderBy('i.product_id')
      .limit(limit)
      .execute();
  }

  daily(sellerId: string, since: Date | undefined) {
    return this.sold(sellerId, since)
      .select((eb) => [
        sql<string>`to_char(${eb.ref('o.completed_at')} at time zone 'UTC', 'YYYY-MM-DD')`.as('date'),
        sql<number>`count(distinct ${eb.ref('o.id')})::bigint`.as('orders'),
        SellerStatsRepository.revenue(eb).as('revenue_cents'),
      ])
      .groupBy('date')
      .orderBy('date')
      .execute();
  }
}

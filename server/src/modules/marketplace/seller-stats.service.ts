import { SELLER_TOP_PRODUCTS, type SellerStats, type SellerStatsPeriod } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { SellerStatsRepository } from './seller-stats.repository.js';

const DAY_MS = 86_400_000;
const DAYS: Record<Exclude<SellerStatsPeriod, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/** A seller's own figures (GET /marketplace/seller/stats): every sum in integer cents, in SQL. */
export class SellerStatsService {
  constructor(private readonly deps: { clock: Clock; stats: SellerStatsRepository }) {}

  async of(actor: UserActor, period: SellerStatsPeriod): Promise<SellerStats> {
    const { stats, clock } = this.deps;
    const now = clock.now().getTime();
    // a bounded period is whole UTC days: the last N, today included
    const firstDay = period === 'all' ? undefined : Math.floor(now / DAY_MS) * DAY_MS - (DAYS[period] - 1) * DAY_MS;
    const since = firstDay === undefined ? undefined : new Date(firstDay);
    const [currencies, top, days] = await Promise.all([
      stats.byCurrency(actor.id, since),
      stats.topProducts(actor.id, since, SELLER_TOP_PRODUCTS),
      stats.daily(actor.id, since),
    ]);
    const orders = currencies.reduce((sum, row) => sum + Number(row.orders), 0);
    const refunds = currencies.reduce((sum, row) => sum + Number(row.refunds), 0);
    const revenue = Object.fromEntries(
      currencies.filter((row) => Number(row.revenue_cents) > 0).map((row) => [row.currency, Number(row.revenue_cents)]),
    );
    const counted = new Map(
      days.map((row) => [
        row.date,
        { date: row.date, orders: Number(row.orders), revenue_cents: Number(row.revenue_cents) },
      ]),
    );
    const daily =
      firstDay === undefined
        ? [...counted.values()]
        : Array.from({ length: DAYS[period as keyof typeof DAYS] }, (_, index) => {
            const date = dayOf(firstDay + index * DAY_MS);
            return counted.get(date) ?? { date, orders: 0, revenue_cents: 0 };
          });
    return {
      period,
      revenue_cents_by_currency: revenue,
      orders,
      units_sold: currencies.reduce((sum, row) => sum + Number(row.units), 0),
      refunds,
      refund_rate: orders === 0 ? 0 : Math.round((refunds / orders) * 10_000) / 10_000,
      top_products: top.map((row) => ({
        product_id: row.product_id,
        title: row.title,
        units: Number(row.units),
        revenue_cents: Number(row.revenue_cents),
      })),
      daily,
    };
  }
}

import { type SqlBool, sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { DAY_COUNTERS, type DayCounters, type Dimension, type ScopeKind, type Window } from './analytics.tables.js';

export interface ScopeOf {
  kind: ScopeKind;
  id: string;
}

/** A period's sums over a scope's days (distinct listeners do not add up: windows count them). */
export type DaySums = Omit<DayCounters, 'listeners' | 'returning_week' | 'returning_month'>;

export interface SeriesDay {
  day: string;
  plays: number;
  listeners: number;
  likes: number;
  follows: number;
  unfollows: number;
  returning_week: number;
  returning_month: number;
  /** A track's plays by the last of its 20 parts they reached (null for other scopes). */
  retention: number[] | null;
}

export interface RankRow {
  item: string;
  plays: number;
  seconds: number;
  completed: number;
}

export interface ExportDay {
  day: string;
  track_id: string;
  plays: number;
  listeners: number;
  listening_seconds: number;
  likes: number;
  reposts: number;
  comments: number;
  shares: number;
  downloads: number;
}

const LISTENER_COUNTERS: readonly string[] = ['listeners', 'returning_week', 'returning_month'];

/** A day with any activity (a row may also exist only to move the windows on). */
const active = sql<SqlBool>`(plays > 0 or likes > 0 or reposts > 0 or comments > 0 or shares > 0 or downloads > 0
  or follows > 0 or unfollows > 0 or sales > 0)`;

/** The replies' SQL: roll-ups only, each read bounded by days, by a top-N index, or by one row. */
export class AnalyticsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The first day with activity, if any. */
  async firstDay(scope: ScopeOf): Promise<string | null> {
    const row = await sql<{ day: string }>`select day from analytics_days
      where scope_kind = ${scope.kind} and scope_id = ${scope.id} and ${active} order by day limit 1`.execute(this.db);
    return row.rows[0]?.day ?? null;
  }

  async sums(scope: ScopeOf, from: string, to: string): Promise<{ sums: DaySums; revenue: Record<string, number> }> {
    const summed = DAY_COUNTERS.filter((counter) => !LISTENER_COUNTERS.includes(counter)).map(
      (counter) => sql`coalesce(sum(${sql.ref(counter)}), 0) as ${sql.ref(counter)}`,
    );
    const result = await sql<DaySums>`select ${sql.join(summed)}
      from analytics_days where scope_kind = ${scope.kind} and scope_id = ${scope.id}
        and day between ${from}::date and ${to}::date`.execute(this.db);
    const revenue = await sql<{
      currency: string;
      cents: number;
    }>`select r.key as currency, sum(r.value::bigint) as cents
      from analytics_days d, jsonb_each_text(d.revenue) r
      where d.scope_kind = ${scope.kind} and d.scope_id = ${scope.id} and d.day between ${from}::date and ${to}::date
        and d.revenue <> '{}'::jsonb
      group by r.key order by r.key`.execute(this.db);
    const row = result.rows[0]!;
    return {
      sums: Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])) as unknown as DaySums,
      revenue: Object.fromEntries(revenue.rows.map((entry) => [entry.currency, Number(entry.cents)])),
    };
  }

  /** Distinct listeners of the window ending on `day`: the latest row on or before it holds them. */
  async listeners(scope: ScopeOf, window: Window, day: string): Promise<number> {
    const row = await this.db
      .selectFrom('analytics_days')
      .select(`listeners_${window}` as const)
      .where('scope_kind', '=', scope.kind)
      .where('scope_id', '=', scope.id)
      .where('day', '<=', day)
      .orderBy('day', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row[`listeners_${window}`]) : 0;
  }

  /** A scope's rows from `from` to `to`, by day: what a series and a retention curve are made of. */
  async seriesDays(scope: ScopeOf, from: string, to: string): Promise<SeriesDay[]> {
    return this.db
      .selectFrom('analytics_days')
      .select([
        'day',
        'plays',
        'listeners',
        'likes',
        'follows',
        'unfollows',
        'returning_week',
        'returning_month',
        'retention',
      ])
      .where('scope_kind', '=', scope.kind)
      .where('scope_id', '=', scope.id)
      .where('day', '>=', from)
      .where('day', '<=', to)
      .orderBy('day')
      .execute();
  }

  /**
   * Per day from `from` to `to`, its listeners who had played already since `from` (their previous
   * day at most as many days back as the day is after `from`): a series' first interval, cut by the
   * period's start, is not a whole week or month. At most 31 days of up to 30 gaps.
   */
  async returningSince(scope: ScopeOf, from: string, to: string): Promise<Map<string, number>> {
    const result = await sql<{ day: string; listeners: number }>`select day, sum(listeners) as listeners
      from analytics_gaps
      where scope_kind = ${scope.kind} and scope_id = ${scope.id} and day > ${from}::date and day <= ${to}::date
        and gap <= day - ${from}::date
      group by day`.execute(this.db);
    return new Map(result.rows.map((row) => [row.day, Number(row.listeners)]));
  }

  /** The items of a dimension, most played in the window first (ties by item), from `offset`. */
  async top(scope: ScopeOf, dimension: Dimension, window: Window, limit: number, offset = 0): Promise<RankRow[]> {
    const rows = await this.db
      .selectFrom('analytics_ranks')
      .select(['item', `plays_${window}` as const, `seconds_${window}` as const, `completed_${window}` as const])
      .where('scope_kind', '=', scope.kind)
      .where('scope_id', '=', scope.id)
      .where('dimension', '=', dimension)
      .where(`plays_${window}`, '>', 0)
      .orderBy(`plays_${window}`, 'desc')
      .orderBy('item')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((row) => ({
      item: row.item,
      plays: Number(row[`plays_${window}`]),
      seconds: Number(row[`seconds_${window}`]),
      completed: Number(row[`completed_${window}`]),
    }));
  }

  /** Days with activity of a creator's tracks, by day, for the export (a page of days at a time). */
  async exportDays(creatorId: string, from: string, to: string): Promise<ExportDay[]> {
    return this.db
      .selectFrom('analytics_days')
      .select([
        'day',
        'scope_id as track_id',
        'plays',
        'listeners',
        'listening_seconds',
        'likes',
        'reposts',
        'comments',
        'shares',
        'downloads',
      ])
      .where('creator_id', '=', creatorId)
      .where('scope_kind', '=', 'track')
      .where('day', '>=', from)
      .where('day', '<=', to)
      .where(active)
      .orderBy('day')
      .execute();
  }
}

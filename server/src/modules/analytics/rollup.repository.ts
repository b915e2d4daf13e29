import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { lockConsumer } from '../../platform/events/event-stream.js';
import {
  DAY_COUNTERS,
  type DayCounters,
  type Dimension,
  type ScopeKind,
  SCOPED_TABLES,
  WINDOW_DAYS,
  WINDOWS,
} from './analytics.tables.js';

/** A scope and one of its listeners, with the last day they played in it (null: never before). */
export interface ListenerState {
  scope_kind: ScopeKind;
  scope_id: string;
  listener: string;
  last_day: string | null;
}

/** Counts added to one scope's day. */
export interface DayIncrement extends DayCounters {
  scope_kind: ScopeKind;
  scope_id: string;
  /** A track's creator (track rows only). */
  creator_id: string | null;
  /** Plays by the last of 20 parts of the track they reached (track scopes only). */
  retention: number[] | null;
}

export interface RankIncrement {
  scope_kind: ScopeKind;
  scope_id: string;
  dimension: Dimension;
  item: string;
  plays: number;
  seconds: number;
  completed: number;
}

export interface CountAt {
  scope_kind: ScopeKind;
  scope_id: string;
  day: string;
  delta: number;
}

export interface GapIncrement {
  scope_kind: ScopeKind;
  scope_id: string;
  gap: number;
  listeners: number;
}

export type ScopeRef = Pick<ListenerState, 'scope_kind' | 'scope_id'>;

/** The roll-up's name as a consumer of the event stream. */
export const ROLLUP_CONSUMER = 'analytics.rollup';

const bounded = WINDOWS.filter((window) => window !== 'all');
const json = (rows: readonly object[]) => JSON.stringify(rows);

/**
 * The roll-up job's SQL: the job's state, and bulk increments of the roll-ups (each a single
 * statement over a JSON array of rows, so a batch of thousands of plays is a few round trips).
 */
export class RollupRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Serializes with the batches of the roll-up's consumer (see lockConsumer). */
  lock(): Promise<void> {
    return lockConsumer(this.scope, ROLLUP_CONSUMER);
  }

  async openDay(): Promise<string | null> {
    const row = await this.db.selectFrom('analytics_state').select('open_day').executeTakeFirst();
    return row?.open_day ?? null;
  }

  async setOpenDay(day: string): Promise<void> {
    await sql`insert into analytics_state (id, open_day) values (true, ${day}::date)
      on conflict (id) do update set open_day = excluded.open_day`.execute(this.db);
  }

  /**
   * Day `day` begins: listeners whose last day is N days before leave the N-day window, so every
   * scope that has such listeners gets its row of the day with its windows counted anew; each
   * window's rank counts lose the day that leaves it; what no window needs any more goes (the
   * ranks' days older than a year, the state of anonymous listeners of past days, whose salt is new
   * each day).
   */
  async beginDay(day: string): Promise<void> {
    const leaving = sql.join(bounded.map((window) => sql`${day}::date - ${WINDOW_DAYS[window]}::int`));
    await sql`insert into analytics_days (scope_kind, scope_id, day, listeners_7d, listeners_30d, listeners_90d, listeners_365d, listeners_all)
      select h.scope_kind, h.scope_id, ${day}::date, ${windowSums(day)}
        from analytics_last_seen h
       where (h.scope_kind, h.scope_id) in (select scope_kind, scope_id from analytics_last_seen where day in (${leaving}))
       group by h.scope_kind, h.scope_id
      on conflict (scope_kind, scope_id, day) do update set
        listeners_7d = excluded.listeners_7d, listeners_30d = excluded.listeners_30d, listeners_90d = excluded.listeners_90d,
        listeners_365d = excluded.listeners_365d, listeners_all = excluded.listeners_all`.execute(this.db);
    for (const window of bounded) {
      const plays = sql.ref(`plays_${window}`);
      const seconds = sql.ref(`seconds_${window}`);
      const completed = sql.ref(`completed_${window}`);
      await sql`update analytics_ranks r set ${plays} = r.${plays} - d.plays, ${seconds} = r.${seconds} - d.seconds,
          ${completed} = r.${completed} - d.completed
        from analytics_rank_days d
       where d.day = ${day}::date - ${WINDOW_DAYS[window]}::int and r.scope_kind = d.scope_kind and r.scope_id = d.scope_id
         and r.dimension = d.dimension and r.item = d.item`.execute(this.db);
    }
    await sql`delete from analytics_rank_days where day <= ${day}::date - ${WINDOW_DAYS['365d']}::int`.execute(this.db);
    await sql`delete from analytics_listeners where last_day < ${day}::date and listener like 'd:%'`.execute(this.db);
  }

  async listenerStates(keys: readonly Omit<ListenerState, 'last_day'>[]): Promise<ListenerState[]> {
    if (keys.length === 0) return [];
    const result = await sql<ListenerState>`
      select k.scope_kind, k.scope_id, k.listener, s.last_day
        from jsonb_to_recordset(${json(keys)}::jsonb) as k(scope_kind text, scope_id uuid, listener text)
        left join analytics_listeners s
          on s.scope_kind = k.scope_kind and s.scope_id = k.scope_id and s.listener = k.listener`.execute(this.db);
    return result.rows;
  }

  async saveListeners(day: string, keys: readonly Omit<ListenerState, 'last_day'>[]): Promise<void> {
    if (keys.length === 0) return;
    await sql`insert into analytics_listeners (scope_kind, scope_id, listener, last_day)
      select k.scope_kind, k.scope_id, k.listener, ${day}::date
        from jsonb_to_recordset(${json(keys)}::jsonb) as k(scope_kind text, scope_id uuid, listener text)
      on conflict (scope_kind, scope_id, listener) do update set last_day = excluded.last_day`.execute(this.db);
  }

  /** Moves listeners between last days: one less on the day they leave, one more on the new one. */
  async moveLastSeen(changes: readonly CountAt[]): Promise<void> {
    if (changes.length === 0) return;
    await sql`insert into analytics_last_seen (scope_kind, scope_id, day, listeners)
      select c.scope_kind, c.scope_id, c.day, c.delta
        from jsonb_to_recordset(${json(changes)}::jsonb) as c(scope_kind text, scope_id uuid, day date, delta integer)
      on conflict (scope_kind, scope_id, day) do update set listeners = analytics_last_seen.listeners + excluded.listeners`.execute(
      this.db,
    );
    await sql`delete from analytics_last_seen h
      using jsonb_to_recordset(${json(changes)}::jsonb) as c(scope_kind text, scope_id uuid, day date)
      where h.scope_kind = c.scope_kind and h.scope_id = c.scope_id and h.day = c.day and h.listeners <= 0`.execute(
      this.db,
    );
  }

  async addDays(day: string, rows: readonly DayIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    const counters = DAY_COUNTERS.map((counter) => sql.ref(counter));
    const fromRow = DAY_COUNTERS.map((counter) => sql.ref(`r.${counter}`));
    const typed = DAY_COUNTERS.map(
      (counter) =>
        sql`${sql.ref(counter)} ${sql.raw(counter === 'listening_seconds' ? 'double precision' : 'integer')}`,
    );
    const added = DAY_COUNTERS.map(
      (counter) => sql`${sql.ref(counter)} = analytics_days.${sql.ref(counter)} + excluded.${sql.ref(counter)}`,
    );
    const windows = WINDOWS.map((window) => `listeners_${window}`);
    // a new row carries the windows of the scope's row before it: nothing this row adds moves them
    // (listeners' arrivals are counted afterwards, by countWindows)
    await sql`insert into analytics_days (scope_kind, scope_id, day, creator_id, ${sql.join(counters)}, retention,
        ${sql.join(windows.map((column) => sql.ref(column)))})
      select r.scope_kind, r.scope_id, ${day}::date, r.creator_id, ${sql.join(fromRow)}, r.retention,
        ${sql.join(windows.map((column) => sql`coalesce(${sql.ref(`prev.${column}`)}, 0)`))}
        from jsonb_to_recordset(${json(rows)}::jsonb)
          as r(scope_kind text, scope_id uuid, creator_id uuid, ${sql.join(typed)}, retention integer[])
        left join lateral (select ${sql.join(windows.map((column) => sql.ref(`p.${column}`)))}
                             from analytics_days p
                            where p.scope_kind = r.scope_kind and p.scope_id = r.scope_id and p.day < ${day}::date
                            order by p.day desc limit 1) prev on true
      on conflict (scope_kind, scope_id, day) do update set
        creator_id = coalesce(excluded.creator_id, analytics_days.creator_id),
        ${sql.join(added)},
        retention = case
          when excluded.retention is null then analytics_days.retention
          when analytics_days.retention is null then excluded.retention
          else (select array_agg(a + b order by i)
                  from unnest(analytics_days.retention, excluded.retention) with ordinality as parts(a, b, i))
        end`.execute(this.db);
  }

  /** Revenue of one scope's day in one currency (sales are few: one statement each); the day's row exists (addDays). */
  async addRevenue(scope: ScopeRef, day: string, currency: string, cents: number): Promise<void> {
    await sql`update analytics_days set revenue = revenue
        || jsonb_build_object(${currency}::text, coalesce((revenue ->> ${currency}::text)::bigint, 0) + ${cents}::bigint)
      where scope_kind = ${scope.scope_kind} and scope_id = ${scope.scope_id}::uuid and day = ${day}::date`.execute(
      this.db,
    );
  }

  async addGaps(day: string, rows: readonly GapIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    await sql`insert into analytics_gaps (scope_kind, scope_id, day, gap, listeners)
      select g.scope_kind, g.scope_id, ${day}::date, g.gap, g.listeners
        from jsonb_to_recordset(${json(rows)}::jsonb) as g(scope_kind text, scope_id uuid, gap smallint, listeners integer)
      on conflict (scope_kind, scope_id, day, gap) do update set listeners = analytics_gaps.listeners + excluded.listeners`.execute(
      this.db,
    );
  }

  /**
   * Adds a day's counts to the ranks: to every window that holds the day (the day is in the N days
   * ending on the open day) and to all time; and to the ranks' days, which the windows lose later.
   */
  async addRanks(day: string, openDay: string, rows: readonly RankIncrement[]): Promise<void> {
    if (rows.length === 0) return;
    const holds = (window: (typeof WINDOWS)[number]) =>
      window === 'all' ? sql`1` : sql`(${day}::date > ${openDay}::date - ${WINDOW_DAYS[window]}::int)::int`;
    const columns = WINDOWS.flatMap((window) => [`plays_${window}`, `seconds_${window}`, `completed_${window}`]);
    const values = WINDOWS.flatMap((window) => [
      sql`r.plays * ${holds(window)}`,
      sql`r.seconds * ${holds(window)}`,
      sql`r.completed * ${holds(window)}`,
    ]);
    const updates = columns.map(
      (column) => sql`${sql.ref(column)} = analytics_ranks.${sql.ref(column)} + excluded.${sql.ref(column)}`,
    );
    const rowsJson = json(rows);
    await sql`insert into analytics_ranks (scope_kind, scope_id, dimension, item, ${sql.join(columns.map((column) => sql.ref(column)))})
      select r.scope_kind, r.scope_id, r.dimension, r.item, ${sql.join(values)}
        from jsonb_to_recordset(${rowsJson}::jsonb) as r(scope_kind text, scope_id uuid, dimension text, item text,
          plays integer, seconds double precision, completed integer)
      on conflict (scope_kind, scope_id, dimension, item) do update set ${sql.join(updates)}`.execute(this.db);
    await sql`insert into analytics_rank_days (scope_kind, scope_id, dimension, item, day, plays, seconds, completed)
      select r.scope_kind, r.scope_id, r.dimension, r.item, ${day}::date, r.plays, r.seconds, r.completed
        from jsonb_to_recordset(${rowsJson}::jsonb) as r(scope_kind text, scope_id uuid, dimension text, item text,
          plays integer, seconds double precision, completed integer)
      on conflict (scope_kind, scope_id, dimension, item, day) do update set plays = analytics_rank_days.plays + excluded.plays,
        seconds = analytics_rank_days.seconds + excluded.seconds, completed = analytics_rank_days.completed + excluded.completed`.execute(
      this.db,
    );
  }

  /** The windows of each scope's row of `day`, counted from the listeners' last days. */
  async countWindows(day: string, scopes: readonly ScopeRef[]): Promise<void> {
    if (scopes.length === 0) return;
    await sql`update analytics_days d set listeners_7d = w.w7d, listeners_30d = w.w30d, listeners_90d = w.w90d,
        listeners_365d = w.w365d, listeners_all = w.wall
      from (select h.scope_kind, h.scope_id, ${windowSums(day, true)}
              from analytics_last_seen h
              join jsonb_to_recordset(${json(scopes)}::jsonb) as s(scope_kind text, scope_id uuid)
                on s.scope_kind = h.scope_kind and s.scope_id = h.scope_id
             group by h.scope_kind, h.scope_id) w
     where d.scope_kind = w.scope_kind and d.scope_id = w.scope_id and d.day = ${day}::date`.execute(this.db);
  }

  // ---- erasure

  /** A listener's identity leaves the roll-ups; the counts they made stay. */
  async forgetListener(userId: string): Promise<void> {
    await this.db.deleteFrom('analytics_listeners').where('listener', '=', `u:${userId}`).execute();
    await this.db
      .deleteFrom('analytics_ranks')
      .where('dimension', '=', 'listener')
      .where('item', '=', userId)
      .execute();
    await this.db
      .deleteFrom('analytics_rank_days')
      .where('dimension', '=', 'listener')
      .where('item', '=', userId)
      .execute();
  }

  /** Every roll-up of these scopes (an erased creator, a deleted track). */
  async removeScopes(kind: ScopeKind, ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    for (const table of SCOPED_TABLES) {
      await this.db.deleteFrom(table).where('scope_kind', '=', kind).where('scope_id', 'in', ids).execute();
    }
  }
}

/** The five window counts of day `day` from analytics_last_seen h (named w7d … wall when `named`). */
function windowSums(day: string, named = false) {
  const sums = bounded.map((window) => {
    const total = sql`coalesce(sum(h.listeners) filter (where h.day > ${day}::date - ${WINDOW_DAYS[window]}::int), 0)`;
    return named ? sql`${total} as ${sql.ref(`w${window}`)}` : total;
  });
  const all = named ? sql`coalesce(sum(h.listeners), 0) as wall` : sql`coalesce(sum(h.listeners), 0)`;
  return sql.join([...sums, all]);
}

import { sql, type Kysely } from 'kysely';

const SCOPES = `scope_kind text not null check (scope_kind in ('creator', 'track', 'playlist')), scope_id uuid not null`;

/**
 * Analytics roll-ups, kept by the roll-up job from the event stream; no reply reads a raw event.
 * A scope is a creator (all their tracks), a track, or a playlist (plays from it).
 *
 * - analytics_days: one row per scope and UTC day with its counts (a track's row names its creator,
 *   for the creator's export). listeners is the distinct
 *   listeners of that day; listeners_<N> the distinct listeners of the N days ending that day, kept
 *   on every row, so a period's (and the previous period's) unique listeners is one row's column: the
 *   latest row on or before its last day. A row is written on each day with activity and on each day
 *   a listener leaves a window (N days after their last day), so the latest row is always exact.
 * - analytics_last_seen: per scope, how many listeners have each day as their last: the windows'
 *   counts are sums over it.
 * - analytics_listeners: per scope and listener, their last day (the job's state; a signed-in listener
 *   is u:<id>, an anonymous one a hash salted for the day, so new each day).
 *   returning_week and returning_month are the day's listeners who had played earlier in its ISO week or
 *   month: a week's or month's distinct listeners are its days' listeners less those.
 * - analytics_gaps: listeners of a day whose previous day with a play was `gap` (1–30) days before:
 *   the distinct listeners of any run of at most 31 days (a series' first week or month, cut by the
 *   period's start) follow.
 * - analytics_ranks: per scope, dimension (track, listener, country, source, playlist) and item, the
 *   counts over the 7, 30, 90 and 365 days ending on the open day and over all time, for top-N lists
 *   read from an index. analytics_rank_days keeps each day's part, subtracted when it leaves a window.
 * - analytics_state: the open day (the windows' last day).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table analytics_days (
        ${SCOPES}, day date not null, creator_id uuid,
        plays integer not null default 0, listeners integer not null default 0,
        listening_seconds double precision not null default 0, completed integer not null default 0,
        likes integer not null default 0, reposts integer not null default 0, comments integer not null default 0,
        shares integer not null default 0, downloads integer not null default 0,
        follows integer not null default 0, unfollows integer not null default 0,
        sales integer not null default 0, revenue jsonb not null default '{}',
        returning_week integer not null default 0, returning_month integer not null default 0,
        retention integer[],
        listeners_7d integer not null default 0, listeners_30d integer not null default 0,
        listeners_90d integer not null default 0, listeners_365d integer not null default 0,
        listeners_all integer not null default 0,
        primary key (scope_kind, scope_id, day))`,
    )
    .execute(db);
  await sql`create index analytics_days_creator on analytics_days (creator_id, day) where scope_kind = 'track'`.execute(
    db,
  );
  await sql
    .raw(
      `create table analytics_last_seen (${SCOPES}, day date not null, listeners integer not null,
        primary key (scope_kind, scope_id, day))`,
    )
    .execute(db);
  await sql`create index analytics_last_seen_day on analytics_last_seen (day)`.execute(db);
  await sql
    .raw(
      `create table analytics_listeners (${SCOPES}, listener text not null, last_day date not null,
        primary key (scope_kind, scope_id, listener))`,
    )
    .execute(db);
  await sql`create index analytics_listeners_listener on analytics_listeners (listener)`.execute(db);
  await sql`create index analytics_listeners_day on analytics_listeners (last_day)`.execute(db);
  await sql
    .raw(
      `create table analytics_gaps (${SCOPES}, day date not null,
        gap smallint not null check (gap between 1 and 30), listeners integer not null,
        primary key (scope_kind, scope_id, day, gap))`,
    )
    .execute(db);
  const windows = ['7d', '30d', '90d', '365d', 'all'];
  const measures = windows
    .map(
      (w) =>
        `plays_${w} integer not null default 0, seconds_${w} double precision not null default 0, completed_${w} integer not null default 0`,
    )
    .join(', ');
  await sql
    .raw(
      `create table analytics_ranks (${SCOPES}, dimension text not null, item text not null, ${measures},
        primary key (scope_kind, scope_id, dimension, item))`,
    )
    .execute(db);
  for (const w of windows) {
    await sql
      .raw(
        `create index analytics_ranks_${w} on analytics_ranks (scope_kind, scope_id, dimension, plays_${w} desc, item)`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create table analytics_rank_days (${SCOPES}, dimension text not null, item text not null, day date not null,
        plays integer not null, seconds double precision not null, completed integer not null,
        primary key (scope_kind, scope_id, dimension, item, day))`,
    )
    .execute(db);
  await sql`create index analytics_rank_days_day on analytics_rank_days (day)`.execute(db);
  await sql`create table analytics_state (id boolean primary key default true check (id), open_day date not null)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'analytics_state',
    'analytics_rank_days',
    'analytics_ranks',
    'analytics_gaps',
    'analytics_listeners',
    'analytics_last_seen',
    'analytics_days',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

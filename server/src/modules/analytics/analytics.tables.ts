import type { Json } from '../../platform/db/column-types.js';

/** What a roll-up row is about: a creator (all their tracks), one track, or plays from one playlist. */
export type ScopeKind = 'creator' | 'track' | 'playlist';

/** The windows ranks and distinct listeners are kept for, by their column suffix. */
export const WINDOWS = ['7d', '30d', '90d', '365d', 'all'] as const;
export type Window = (typeof WINDOWS)[number];
/** The length in days of each bounded window. */
export const WINDOW_DAYS = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 } as const satisfies Record<
  Exclude<Window, 'all'>,
  number
>;

/** What a rank counts plays by. */
export type Dimension = 'track' | 'listener' | 'country' | 'source' | 'playlist';

/** What a scope's day counts, each a sum over its events (listening_seconds in seconds, the rest events). */
export const DAY_COUNTERS = [
  'plays',
  'listeners',
  'listening_seconds',
  'completed',
  'likes',
  'reposts',
  'comments',
  'shares',
  'downloads',
  'follows',
  'unfollows',
  'sales',
  // listeners of the day who had played earlier in its ISO week, in its calendar month
  'returning_week',
  'returning_month',
] as const;
export type DayCounters = Record<(typeof DAY_COUNTERS)[number], number>;

/** The counters of one scope on one UTC day (dates are 'YYYY-MM-DD' strings). */
export interface AnalyticsDaysTable extends DayCounters {
  scope_kind: ScopeKind;
  scope_id: string;
  day: string;
  /** A track's creator (track rows only). */
  creator_id: string | null;
  revenue: Json<Record<string, number>>;
  retention: number[] | null;
  listeners_7d: number;
  listeners_30d: number;
  listeners_90d: number;
  listeners_365d: number;
  listeners_all: number;
}

export interface AnalyticsLastSeenTable {
  scope_kind: ScopeKind;
  scope_id: string;
  day: string;
  listeners: number;
}

export interface AnalyticsListenersTable {
  scope_kind: ScopeKind;
  scope_id: string;
  listener: string;
  last_day: string;
}

export interface AnalyticsGapsTable {
  scope_kind: ScopeKind;
  scope_id: string;
  day: string;
  gap: number;
  listeners: number;
}

type RankMeasures = {
  [K in `${'plays' | 'seconds' | 'completed'}_${Window}`]: number;
};

export interface AnalyticsRanksTable extends RankMeasures {
  scope_kind: ScopeKind;
  scope_id: string;
  dimension: Dimension;
  item: string;
}

export interface AnalyticsRankDaysTable {
  scope_kind: ScopeKind;
  scope_id: string;
  dimension: Dimension;
  item: string;
  day: string;
  plays: number;
  seconds: number;
  completed: number;
}

export interface AnalyticsStateTable {
  id: boolean;
  open_day: string;
}

/** The tables whose rows belong to one scope (all but the job's state). */
export const SCOPED_TABLES = [
  'analytics_days',
  'analytics_last_seen',
  'analytics_listeners',
  'analytics_gaps',
  'analytics_ranks',
  'analytics_rank_days',
] as const;

/** The analytics area's tables: roll-ups only (the events they come from are other areas'). */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    analytics_days: AnalyticsDaysTable;
    analytics_last_seen: AnalyticsLastSeenTable;
    analytics_listeners: AnalyticsListenersTable;
    analytics_gaps: AnalyticsGapsTable;
    analytics_ranks: AnalyticsRanksTable;
    analytics_rank_days: AnalyticsRankDaysTable;
    analytics_state: AnalyticsStateTable;
  }
}

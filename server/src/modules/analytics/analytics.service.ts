import {
  ANALYTICS_TOP_LISTENERS,
  ANALYTICS_TOP_PLAYLISTS,
  ANALYTICS_TOP_TRACKS,
  type AnalyticsInterval,
  type AnalyticsPeriod,
  type AnalyticsTotals,
  PLAY_SOURCES,
  type PlaySource,
  type Playlist,
  type Profile,
  RETENTION_BUCKETS,
  type Track,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import { forbidden, notFound } from '../../platform/errors/app-error.js';
import { addDays, dayOf, monthStart, weekStart } from './analytics-days.js';
import { type Bucket, buckets, type PeriodRange, periodRange } from './analytics-periods.js';
import type { AnalyticsRepository, RankRow, ScopeOf, SeriesDay } from './analytics.repository.js';

export interface AnalyticsServiceDeps {
  analytics: AnalyticsRepository;
  clock: Clock;
  /** Tracks as this caller reads them (missing: the caller may not see it, or it is gone). */
  tracks(actor: Actor, ids: readonly string[]): Promise<Map<string, Track>>;
  /** The titles of those of `ids` that are the creator's tracks and still exist. */
  titles(creatorId: string, ids: readonly string[]): Promise<Map<string, string>>;
  /** Playlists as this caller may see them. */
  playlists(actor: Actor, ids: readonly string[]): Promise<Map<string, Playlist>>;
  /** Of these users, those who may appear in the viewer's audience list: public, not opted out, no block either way. */
  audience(ids: readonly string[], viewerId: string): Promise<Map<string, Profile>>;
}

export interface PeriodQuery {
  period: AnalyticsPeriod;
}
export interface SeriesQuery extends PeriodQuery {
  interval: AnalyticsInterval;
}

/** Export rows are read this many days at a time (a day's rows are sorted by title in memory). */
const EXPORT_DAYS_PER_READ = 31;
/** The export's order of titles within a day. */
const TITLE_ORDER = new Intl.Collator('en', { sensitivity: 'variant', numeric: true });
/** Before any roll-up: the first day of an all-time sum. */
const EPOCH_DAY = '1970-01-01';
/** Candidates read per round when some of a top list may not be shown. */
const CANDIDATES = 50;

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;
const share = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 4));

/**
 * A creator's analytics, read from the roll-ups alone: totals and the previous period from the daily
 * rows, unique listeners from one row's window count, top lists from the ranks' indexes.
 */
export class AnalyticsService {
  constructor(private readonly deps: AnalyticsServiceDeps) {}

  private today(): string {
    return dayOf(this.deps.clock.now());
  }

  private async range(scope: ScopeOf, period: AnalyticsPeriod): Promise<PeriodRange> {
    const first = period === 'all' ? await this.deps.analytics.firstDay(scope) : null;
    return periodRange(period, this.today(), first);
  }

  async overview(actor: UserActor, query: SeriesQuery) {
    const scope: ScopeOf = { kind: 'creator', id: actor.id };
    const range = await this.range(scope, query.period);
    const [figures, topTracks] = await Promise.all([
      this.figures(scope, range, query),
      this.topTracks(actor, scope, range),
    ]);
    const { completed: _completed, days: _days, ...shared } = figures;
    return { ...shared, top_tracks: topTracks };
  }

  async track(actor: UserActor, trackId: string, query: SeriesQuery) {
    const track = (await this.deps.tracks(actor, [trackId])).get(trackId);
    if (!track) throw notFound('Track');
    if (track.creator_id !== actor.id && !actor.isAdmin) throw forbidden('Only the track’s creator sees its analytics');
    const scope: ScopeOf = { kind: 'track', id: trackId };
    const range = await this.range(scope, query.period);
    const [{ completed, days, ...figures }, playlists] = await Promise.all([
      this.figures(scope, range, query),
      this.topPlaylists(actor, scope, range),
    ]);
    return {
      ...figures,
      completion_rate: share(completed, figures.totals.plays),
      retention: retentionOf(days, track.duration),
      playlists,
    };
  }

  /** What the overview and a track's reply share: the period, its totals and the previous ones, a series, sources. */
  private async figures(scope: ScopeOf, range: PeriodRange, query: SeriesQuery) {
    const [{ totals, completed }, previous, days, returning, sources] = await Promise.all([
      this.counts(scope, range.from, range.to, range.window),
      range.previous ? this.totals(scope, range.previous.from, range.previous.to, range.window) : null,
      this.deps.analytics.seriesDays(scope, range.from, range.to),
      this.returningInFirst(scope, range, query.interval),
      this.sources(scope, range),
    ]);
    return {
      period: query.period,
      interval: query.interval,
      from: range.from,
      to: range.to,
      totals,
      previous,
      series: this.series(range, query.interval, days, returning),
      sources,
      completed,
      days,
    };
  }

  async audience(actor: UserActor, query: PeriodQuery) {
    const scope: ScopeOf = { kind: 'creator', id: actor.id };
    const range = await this.range(scope, query.period);
    const listeners = await this.shown(
      (limit, offset) => this.deps.analytics.top(scope, 'listener', range.window, limit, offset),
      (ids) => this.deps.audience(ids, actor.id),
      ANALYTICS_TOP_LISTENERS,
    );
    const countries = await this.deps.analytics.top(scope, 'country', range.window, 300);
    return {
      period: query.period,
      from: range.from,
      to: range.to,
      top_listeners: listeners.map(({ row, item }) => ({ user: item, plays: row.plays })),
      countries: countries.map((row) => ({ country: row.item, plays: row.plays })),
    };
  }

  /**
   * The export's rows: one per track and UTC day with any activity, by date then title; only tracks
   * the creator still has are listed. Read a month of days at a time, so memory stays bounded.
   */
  async *exportRows(actor: UserActor, query: PeriodQuery): AsyncGenerator<(string | number)[]> {
    const range = await this.range({ kind: 'creator', id: actor.id }, query.period);
    const titles = new Map<string, string>();
    const asked = new Set<string>();
    // each track's place by title, made again only when a read brings tracks not seen before
    let order = new Map<string, number>();
    for (let from = range.from; from <= range.to; from = addDays(from, EXPORT_DAYS_PER_READ)) {
      const last = addDays(from, EXPORT_DAYS_PER_READ - 1);
      const rows = await this.deps.analytics.exportDays(actor.id, from, last < range.to ? last : range.to);
      const unknown = [...new Set(rows.map((row) => row.track_id))].filter((id) => !asked.has(id));
      if (unknown.length > 0) {
        for (const id of unknown) asked.add(id);
        for (const [id, title] of await this.deps.titles(actor.id, unknown)) titles.set(id, title);
        const byTitle = [...titles].sort(([, a], [, b]) => TITLE_ORDER.compare(a, b));
        order = new Map(byTitle.map(([id], place) => [id, place]));
      }
      const shown = rows.filter((row) => titles.has(row.track_id));
      shown.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : order.get(a.track_id)! - order.get(b.track_id)!));
      for (const row of shown) {
        yield [
          row.day,
          row.track_id,
          titles.get(row.track_id)!,
          row.plays,
          row.listeners,
          round(row.listening_seconds),
          row.likes,
          row.reposts,
          row.comments,
          row.shares,
          row.downloads,
        ];
      }
    }
  }

  /** Counted plays started from a playlist over all time, and its most played tracks. */
  async playsFromPlaylist(playlistId: string) {
    const scope: ScopeOf = { kind: 'playlist', id: playlistId };
    const [top, { sums }] = await Promise.all([
      this.deps.analytics.top(scope, 'track', 'all', ANALYTICS_TOP_TRACKS),
      this.deps.analytics.sums(scope, EPOCH_DAY, this.today()),
    ]);
    return { total: sums.plays, top: top.map((row) => ({ track_id: row.item, plays: row.plays })) };
  }

  // ---- parts

  private async totals(
    scope: ScopeOf,
    from: string,
    to: string,
    window: PeriodRange['window'],
  ): Promise<AnalyticsTotals> {
    return (await this.counts(scope, from, to, window)).totals;
  }

  /** A period's totals, and how many of its counted plays were complete. */
  private async counts(scope: ScopeOf, from: string, to: string, window: PeriodRange['window']) {
    const [{ sums, revenue }, listeners] = await Promise.all([
      this.deps.analytics.sums(scope, from, to),
      this.deps.analytics.listeners(scope, window, to),
    ]);
    const totals: AnalyticsTotals = {
      plays: sums.plays,
      unique_listeners: listeners,
      listening_seconds: round(sums.listening_seconds),
      likes: sums.likes,
      reposts: sums.reposts,
      comments: sums.comments,
      shares: sums.shares,
      downloads: sums.downloads,
      followers_gained: sums.follows,
      followers_lost: sums.unfollows,
      sales: sums.sales,
      revenue_cents_by_currency: revenue,
    };
    return { totals, completed: sums.completed };
  }

  /**
   * A series' first interval is cut by the period's start unless the period begins on a Monday (a
   * week) or a first of the month: its listeners who had played earlier in it are counted from the
   * gaps of its days (at most 31 of them); the whole intervals after it have theirs on each day's row.
   */
  private async returningInFirst(scope: ScopeOf, range: PeriodRange, interval: AnalyticsInterval) {
    const first = cutFirst(range, interval);
    return first ? this.deps.analytics.returningSince(scope, first.start, first.end) : new Map<string, number>();
  }

  /**
   * Each interval's counts. Its unique listeners: for a day, that day's listeners; for a week or a
   * month, its days' listeners less those who had played earlier in it (for the first interval, cut
   * by the period's start, earlier since that start).
   */
  private series(
    range: PeriodRange,
    interval: AnalyticsInterval,
    rows: readonly SeriesDay[],
    returningInFirst: ReadonlyMap<string, number>,
  ) {
    const intervals = buckets(range.from, range.to, interval);
    const days = new Map(rows.map((row) => [row.day, row]));
    const cut = cutFirst(range, interval);
    const returning = (row: SeriesDay) => {
      if (interval === 'day') return 0;
      if (cut && row.day <= cut.end) return returningInFirst.get(row.day) ?? 0;
      return interval === 'week' ? row.returning_week : row.returning_month;
    };
    return intervals.map((bucket) => {
      let plays = 0;
      let listeners = 0;
      let likes = 0;
      let net = 0;
      for (let day = bucket.start; day <= bucket.end; day = addDays(day, 1)) {
        const row = days.get(day);
        if (!row) continue;
        plays += row.plays;
        likes += row.likes;
        net += row.follows - row.unfollows;
        listeners += row.listeners - returning(row);
      }
      return { date: bucket.start, plays, unique_listeners: listeners, likes, followers_net: net };
    });
  }

  private async sources(scope: ScopeOf, range: PeriodRange): Promise<Record<PlaySource, number>> {
    const rows = await this.deps.analytics.top(scope, 'source', range.window, PLAY_SOURCES.length);
    const plays = new Map(rows.map((row) => [row.item, row.plays]));
    return Object.fromEntries(PLAY_SOURCES.map((source) => [source, plays.get(source) ?? 0])) as Record<
      PlaySource,
      number
    >;
  }

  private async topTracks(actor: UserActor, scope: ScopeOf, range: PeriodRange) {
    const shown = await this.shown(
      (limit, offset) => this.deps.analytics.top(scope, 'track', range.window, limit, offset),
      async (ids) => {
        const tracks = await this.deps.tracks(actor, ids);
        return new Map([...tracks].filter(([, track]) => track.creator_id === actor.id));
      },
      ANALYTICS_TOP_TRACKS,
    );
    return shown.map(({ row, item }) => ({
      track: item,
      plays: row.plays,
      listening_seconds: round(row.seconds),
      completion_rate: share(row.completed, row.plays),
    }));
  }

  private async topPlaylists(actor: UserActor, scope: ScopeOf, range: PeriodRange) {
    const shown = await this.shown(
      (limit, offset) => this.deps.analytics.top(scope, 'playlist', range.window, limit, offset),
      (ids) => this.deps.playlists(actor, ids),
      ANALYTICS_TOP_PLAYLISTS,
    );
    return shown.map(({ row, item }) => ({ playlist: item, plays: row.plays }));
  }

  /**
   * The first `count` ranked items the caller may be shown, in rank order: candidates are read a few
   * dozen at a time until enough pass (the ranks hold items that may since have gone private).
   */
  private async shown<T>(
    read: (limit: number, offset: number) => Promise<RankRow[]>,
    resolve: (ids: string[]) => Promise<Map<string, T>>,
    count: number,
  ): Promise<{ row: RankRow; item: T }[]> {
    const result: { row: RankRow; item: T }[] = [];
    // the first read is the list itself (most items may be shown: resolving 50 full playlists to show
    // 10 doubled the reply), the ones after it a few dozen at a time
    for (let offset = 0, limit = count; result.length < count; offset += limit, limit = CANDIDATES) {
      const rows = await read(limit, offset);
      const items = await resolve(rows.map((row) => row.item));
      for (const row of rows) {
        const item = items.get(row.item);
        if (item !== undefined && result.length < count) result.push({ row, item });
      }
      if (rows.length < limit) break;
    }
    return result;
  }
}

/** 20 parts of equal length; each part's listeners are the plays that reached its first second. */
function retentionOf(days: readonly SeriesDay[], duration: number) {
  const reached = Array.from({ length: RETENTION_BUCKETS }, () => 0);
  for (const day of days) day.retention?.forEach((plays, bucket) => (reached[bucket]! += plays));
  let listeners = reached.reduce((sum, plays) => sum + plays, 0);
  return reached.map((plays, bucket) => {
    const entry = { second_bucket: round((bucket * duration) / RETENTION_BUCKETS, 2), listeners };
    listeners -= plays;
    return entry;
  });
}

/** A series' first week or month when the period's start cuts it (undefined for days, or a whole one). */
function cutFirst(range: PeriodRange, interval: AnalyticsInterval): Bucket | undefined {
  if (interval === 'day') return undefined;
  const start = interval === 'week' ? weekStart(range.from) : monthStart(range.from);
  return start === range.from ? undefined : buckets(range.from, range.to, interval)[0];
}

/**
 * A brute-force model of the analytics figures, for the model-based test: it keeps every counted
 * play, like and follow of a scenario as it happened and computes each reply's figures by looking at
 * all of them, with none of the roll-ups' bookkeeping (windows, last days, gaps, ranks).
 */

export const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** One listener's plays of one track count at most once per this many minutes. */
const WINDOW_MINUTES = 30;
/** An anonymous address counts at most this many plays of one track per period. */
const ADDRESS_PLAYS = 3;
const ADDRESS_PERIOD_MS = 24 * 60 * MINUTE_MS;
const COMPLETE_SHARE = 0.9;
const RETENTION_PARTS = 20;
const TOP_TRACKS = 10;

export const PERIODS = ['7d', '30d', '90d', '365d', 'all'] as const;
export type ModelPeriod = (typeof PERIODS)[number];
export const INTERVALS = ['day', 'week', 'month'] as const;
export type ModelInterval = (typeof INTERVALS)[number];
const PERIOD_DAYS: Record<Exclude<ModelPeriod, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90, '365d': 365 };

/** A UTC day as a number of days since 1970-01-01. */
export const dayNumber = (at: number) => Math.floor(at / DAY_MS);
export const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** Who played: a signed-in listener (by index) or an anonymous one (by index: their address and user agent). */
export type ModelListener = { kind: 'user'; index: number } | { kind: 'anonymous'; index: number };

interface CountedPlay {
  day: number;
  track: number;
  /** The listener as unique listeners count them: a user, or an anonymous one on one UTC day. */
  key: string;
  seconds: number;
  completed: boolean;
  part: number;
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;
const share = (part: number, whole: number) => (whole === 0 ? 0 : round(part / whole, 4));

export interface ModelTotals {
  plays: number;
  unique_listeners: number;
  listening_seconds: number;
  likes: number;
  reposts: 0;
  comments: 0;
  shares: 0;
  downloads: 0;
  followers_gained: number;
  followers_lost: number;
  sales: 0;
  revenue_cents_by_currency: Record<string, never>;
}

export interface ModelPoint {
  date: string;
  plays: number;
  unique_listeners: number;
  likes: number;
  followers_net: number;
}

export class AnalyticsModel {
  private readonly plays: CountedPlay[] = [];
  private readonly likes: { day: number; track: number }[] = [];
  private readonly follows: { day: number; delta: 1 | -1 }[] = [];
  /** Per track and listener (not salted by day: the 30-minute rule holds across midnight), the last counted time. */
  private readonly windows = new Map<string, number>();
  /** Per track and anonymous address, the period's start and its counted plays. */
  private readonly addresses = new Map<string, { start: number; plays: number }>();
  private readonly liked = new Set<string>();
  private readonly following = new Set<number>();

  /** `durations` of the creator's tracks, in seconds (all of them at least 30). */
  constructor(readonly durations: readonly number[]) {}

  /** A play of `seconds` (at least 30) at `at`; answers whether it counts, as the server must. */
  play(at: number, track: number, listener: ModelListener, seconds: number): boolean {
    const windowKey = `${track}:${listener.kind}:${listener.index}`;
    const last = this.windows.get(windowKey);
    if (last !== undefined && last > at - WINDOW_MINUTES * MINUTE_MS) return false;
    // the listener's window moves even when the address bound refuses the play
    this.windows.set(windowKey, at);
    if (listener.kind === 'anonymous') {
      const addressKey = `${track}:${listener.index}`;
      const period = this.addresses.get(addressKey);
      if (!period || period.start <= at - ADDRESS_PERIOD_MS) this.addresses.set(addressKey, { start: at, plays: 1 });
      else if (period.plays < ADDRESS_PLAYS) period.plays += 1;
      else return false;
    }
    const day = dayNumber(at);
    const duration = this.durations[track]!;
    this.plays.push({
      day,
      track,
      key: listener.kind === 'user' ? `u${listener.index}` : `a${listener.index}@${day}`,
      seconds,
      completed: seconds >= COMPLETE_SHARE * duration,
      part: Math.min(RETENTION_PARTS - 1, Math.floor((seconds / duration) * RETENTION_PARTS)),
    });
    return true;
  }

  /** A like: only the first like of a track by a user is an event. */
  like(at: number, user: number, track: number): void {
    const key = `${user}:${track}`;
    if (this.liked.has(key)) return;
    this.liked.add(key);
    this.likes.push({ day: dayNumber(at), track });
  }

  /** A follow or unfollow of the creator: only a change of state is an event. */
  follow(at: number, user: number, follows: boolean): void {
    if (this.following.has(user) === follows) return;
    if (follows) this.following.add(user);
    else this.following.delete(user);
    this.follows.push({ day: dayNumber(at), delta: follows ? 1 : -1 });
  }

  get countedPlays(): number {
    return this.plays.length;
  }

  // ---- the replies' figures; `track` undefined: the creator's overview

  private scoped(track: number | undefined) {
    return {
      plays: this.plays.filter((play) => track === undefined || play.track === track),
      likes: this.likes.filter((like) => track === undefined || like.track === track),
      // follows are the creator's alone
      follows: track === undefined ? this.follows : [],
    };
  }

  /** "Nd": the N days ending today, and the N before them; all: from the first day with activity. */
  range(period: ModelPeriod, today: number, track?: number) {
    if (period === 'all') {
      const { plays, likes, follows } = this.scoped(track);
      const days = [...plays, ...likes, ...follows].map((fact) => fact.day);
      const first = days.length > 0 ? Math.min(...days) : today;
      return { from: Math.min(first, today), to: today, previous: null };
    }
    const days = PERIOD_DAYS[period];
    const from = today - days + 1;
    return { from, to: today, previous: { from: from - days, to: from - 1 } };
  }

  private sums(track: number | undefined, from: number, to: number) {
    const scoped = this.scoped(track);
    const inRange = <T extends { day: number }>(facts: T[]) =>
      facts.filter((fact) => fact.day >= from && fact.day <= to);
    const plays = inRange(scoped.plays);
    const follows = inRange(scoped.follows);
    return {
      plays,
      totals: {
        plays: plays.length,
        unique_listeners: new Set(plays.map((play) => play.key)).size,
        listening_seconds: round(plays.reduce((sum, play) => sum + play.seconds, 0)),
        likes: inRange(scoped.likes).length,
        reposts: 0,
        comments: 0,
        shares: 0,
        downloads: 0,
        followers_gained: follows.filter((follow) => follow.delta === 1).length,
        followers_lost: follows.filter((follow) => follow.delta === -1).length,
        sales: 0,
        revenue_cents_by_currency: {},
      } satisfies ModelTotals,
      net: follows.reduce((sum, follow) => sum + follow.delta, 0),
    };
  }

  private series(track: number | undefined, from: number, to: number, interval: ModelInterval): ModelPoint[] {
    const points: ModelPoint[] = [];
    for (let start = from; start <= to; ) {
      const date = new Date(start * DAY_MS);
      const last =
        interval === 'day'
          ? start
          : interval === 'week'
            ? start + 6 - ((date.getUTCDay() + 6) % 7)
            : dayNumber(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)) - 1;
      const end = Math.min(last, to);
      const { totals, net } = this.sums(track, start, end);
      points.push({
        date: isoDay(start),
        plays: totals.plays,
        unique_listeners: totals.unique_listeners,
        likes: totals.likes,
        followers_net: net,
      });
      start = end + 1;
    }
    return points;
  }

  /** The overview's figures (top tracks by id, as the model knows them by index). */
  overview(today: number, period: ModelPeriod, interval: ModelInterval, trackIds: readonly string[]) {
    const range = this.range(period, today);
    const totals = this.sums(undefined, range.from, range.to).totals;
    // the top list counts the N days ending today for "Nd", every day for all
    const top = trackIds
      .map((id, track) => ({ id, ...this.sums(track, period === 'all' ? -Infinity : range.from, today) }))
      .filter((entry) => entry.plays.length > 0)
      .map((entry) => ({
        id: entry.id,
        plays: entry.plays.length,
        listening_seconds: entry.totals.listening_seconds,
        completion_rate: share(entry.plays.filter((play) => play.completed).length, entry.plays.length),
      }))
      .sort((a, b) => b.plays - a.plays || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, TOP_TRACKS);
    return {
      from: isoDay(range.from),
      to: isoDay(range.to),
      totals,
      previous: range.previous ? this.sums(undefined, range.previous.from, range.previous.to).totals : null,
      series: this.series(undefined, range.from, range.to, interval),
      top_tracks: top,
    };
  }

  /** One track's figures. */
  track(today: number, track: number, period: ModelPeriod, interval: ModelInterval) {
    const range = this.range(period, today, track);
    const { plays, totals } = this.sums(track, range.from, range.to);
    const duration = this.durations[track]!;
    return {
      from: isoDay(range.from),
      to: isoDay(range.to),
      totals,
      previous: range.previous ? this.sums(track, range.previous.from, range.previous.to).totals : null,
      series: this.series(track, range.from, range.to, interval),
      completion_rate: share(plays.filter((play) => play.completed).length, plays.length),
      retention: Array.from({ length: RETENTION_PARTS }, (_, part) => ({
        second_bucket: round((part * duration) / RETENTION_PARTS, 2),
        listeners: plays.filter((play) => play.part >= part).length,
      })),
    };
  }
}

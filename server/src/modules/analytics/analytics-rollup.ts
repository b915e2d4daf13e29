import { ANALYTICS_COMPLETION_SHARE, RETENTION_BUCKETS } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { DomainEvent, EventBus } from '../../platform/events/event-bus.js';
import type { BatchedEventHandler } from '../../platform/events/event-stream.js';
import { DAY_COUNTERS, type DayCounters, type Dimension, type ScopeKind } from './analytics.tables.js';
import { addDays, dayOf, daysBetween, monthStart, weekStart } from './analytics-days.js';
import type {
  CountAt,
  DayIncrement,
  GapIncrement,
  ListenerState,
  RankIncrement,
  RollupRepository,
  ScopeRef,
} from './rollup.repository.js';
import { ROLLUP_CONSUMER } from './rollup.repository.js';

/** The facts analytics counts, as their areas record them. */
export const ROLLED_UP = [
  'track.played',
  'track.liked',
  'track.reposted',
  'track.shared',
  'track.downloaded',
  'comment.created',
  'user.followed',
  'user.unfollowed',
  'product.sold',
  'order.refunded',
] as const;
export type RolledUp = (typeof ROLLED_UP)[number];

/** What an order sold, as the roll-up needs it (the marketplace's read port answers it). */
export interface OrderSales {
  currency: string;
  /** null while the order has not completed. */
  completedAt: Date | null;
  /** Each item's seller, the track its product sells (null for other products), what it brought after its discount. */
  items: { id: string; seller_id: string | null; track_id: string | null; net_cents: number }[];
}

/** A played track as the roll-up needs it. */
export interface TrackFacts {
  creator_id: string;
  /** Seconds; 0 when unknown. */
  duration: number;
}

export interface RollupDeps {
  scope: DbScope;
  store: RollupRepository;
  events: Pick<EventBus, 'drain'>;
  clock: Clock;
  /** The tracks that still exist, by id. */
  tracks(ids: readonly string[]): Promise<Map<string, TrackFacts>>;
  /** What these orders sold (their items' sellers, tracks and net amounts) and when they completed. */
  orderSales(orderIds: readonly string[]): Promise<Map<string, OrderSales>>;
  /** Events applied per transaction. */
  batchSize: number;
}

/** Gaps longer than this are not kept: no week or month of a series is longer. */
const GAP_MAX = 30;

const keyOf = (kind: ScopeKind, id: string) => `${kind}:${id}`;

/** One day's increments, gathered from the events of that day in a batch. */
class DayTally {
  readonly days = new Map<string, DayIncrement>();
  readonly ranks = new Map<string, RankIncrement>();
  readonly visits = new Map<string, Omit<ListenerState, 'last_day'>>();
  readonly sales: { scope: ScopeRef; currency: string; cents: number }[] = [];
  /** Refunded items: taken off the day their order completed. */
  readonly refunds: { day: string; scope: ScopeRef; creator_id: string | null; currency: string; cents: number }[] = [];

  day(scope_kind: ScopeKind, scope_id: string, creator_id: string | null = null): DayIncrement {
    const key = keyOf(scope_kind, scope_id);
    let row = this.days.get(key);
    if (!row) {
      row = emptyDay(scope_kind, scope_id, creator_id);
      this.days.set(key, row);
    }
    return row;
  }

  rank(
    scope_kind: ScopeKind,
    scope_id: string,
    dimension: Dimension,
    item: string,
    seconds: number,
    completed: number,
  ) {
    const key = `${keyOf(scope_kind, scope_id)}:${dimension}:${item}`;
    const row = this.ranks.get(key) ?? { scope_kind, scope_id, dimension, item, plays: 0, seconds: 0, completed: 0 };
    row.plays += 1;
    row.seconds += seconds;
    row.completed += completed;
    this.ranks.set(key, row);
  }

  visit(scope_kind: ScopeKind, scope_id: string, listener: string) {
    this.visits.set(`${keyOf(scope_kind, scope_id)}:${listener}`, { scope_kind, scope_id, listener });
  }
}

/**
 * The roll-up: the job drains the event stream in batches and adds each event to the daily rows,
 * the listeners' state and the ranks of its scopes (the creator, the track, the playlist played
 * from). Events are applied day by day in the order they were recorded; a day is begun (windows move
 * on) before its first event, and once the stream is empty the days up to today are begun too.
 */
export class AnalyticsRollup {
  constructor(private readonly deps: RollupDeps) {}

  get handler(): BatchedEventHandler<RolledUp> {
    return {
      name: ROLLUP_CONSUMER,
      types: ROLLED_UP,
      delivery: 'batched',
      handleBatch: (events) => this.apply(events),
    };
  }

  /** Drains the stream, then begins the days up to today. */
  async run(): Promise<{ applied: number }> {
    let applied = 0;
    for (;;) {
      const taken = await this.deps.events.drain(ROLLUP_CONSUMER, this.deps.batchSize);
      applied += taken;
      if (taken < this.deps.batchSize) break;
    }
    await this.deps.scope.transaction(async () => {
      await this.deps.store.lock();
      await this.begin(dayOf(this.deps.clock.now()));
    });
    return { applied };
  }

  /** Begins every day after the open one up to `day` (the first day ever just opens). */
  private async begin(day: string): Promise<string> {
    const open = await this.deps.store.openDay();
    if (open !== null && day <= open) return open;
    if (open !== null) {
      for (let next = addDays(open, 1); next <= day; next = addDays(next, 1)) await this.deps.store.beginDay(next);
    }
    await this.deps.store.setOpenDay(day);
    return day;
  }

  private async apply(events: readonly DomainEvent<RolledUp>[]): Promise<void> {
    const byDay = new Map<string, DomainEvent<RolledUp>[]>();
    for (const event of [...events].sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())) {
      const day = dayOf(event.occurredAt);
      byDay.set(day, [...(byDay.get(day) ?? []), event]);
    }
    const orders = await this.deps.orderSales([
      ...new Set(events.map((event) => orderOf(event)).filter((id): id is string => id !== null)),
    ]);
    const orderTracks = [...orders.values()].flatMap((order) => order.items.map((item) => item.track_id));
    const tracks = await this.deps.tracks([
      ...new Set([...events.map((event) => trackOf(event)), ...orderTracks].filter((id): id is string => id !== null)),
    ]);
    for (const [day, list] of byDay) {
      const open = await this.begin(day);
      const tally = this.tally(list, tracks, orders);
      await this.applyDay(day, open, tally);
      for (const refund of tally.refunds) {
        await this.deps.store.addDays(refund.day, [
          { ...emptyDay(refund.scope.scope_kind, refund.scope.scope_id, refund.creator_id), sales: -1 },
        ]);
        await this.deps.store.addRevenue(refund.scope, refund.day, refund.currency, -refund.cents);
      }
    }
  }

  private tally(
    events: readonly DomainEvent<RolledUp>[],
    tracks: Map<string, TrackFacts>,
    orders: Map<string, OrderSales>,
  ): DayTally {
    const tally = new DayTally();
    /** The scopes an order item's sale counts in: its seller, and the track it sells. */
    const sellers = (item: OrderSales['items'][number]) => {
      const track = item.track_id ? tracks.get(item.track_id) : undefined;
      const scopes: { scope: ScopeRef; creator_id: string | null }[] = [];
      if (item.seller_id) scopes.push({ scope: { scope_kind: 'creator', scope_id: item.seller_id }, creator_id: null });
      if (track && item.track_id) {
        scopes.push({ scope: { scope_kind: 'track', scope_id: item.track_id }, creator_id: track.creator_id });
      }
      return scopes;
    };
    for (const event of events) {
      const trackId = trackOf(event);
      const track = trackId ? tracks.get(trackId) : undefined;
      const both = (add: (row: DayIncrement) => void) => {
        if (!track || !trackId) return;
        add(tally.day('creator', track.creator_id));
        add(tally.day('track', trackId, track.creator_id));
      };
      switch (event.type) {
        case 'track.played': {
          if (!track || !trackId) break;
          const play = (event as DomainEvent<'track.played'>).data;
          const seconds = play.duration_listened;
          const completed = track.duration > 0 && seconds >= ANALYTICS_COMPLETION_SHARE * track.duration ? 1 : 0;
          both((row) => {
            row.plays += 1;
            row.listening_seconds += seconds;
            row.completed += completed;
          });
          const trackDay = tally.day('track', trackId, track.creator_id);
          trackDay.retention ??= Array.from({ length: RETENTION_BUCKETS }, () => 0);
          trackDay.retention[retentionBucket(seconds, track.duration)]! += 1;
          tally.rank('creator', track.creator_id, 'track', trackId, seconds, completed);
          tally.rank('creator', track.creator_id, 'source', play.source, seconds, completed);
          tally.rank('track', trackId, 'source', play.source, seconds, completed);
          tally.rank('creator', track.creator_id, 'country', play.country, seconds, completed);
          if (event.userId) tally.rank('creator', track.creator_id, 'listener', event.userId, seconds, completed);
          if (play.source === 'playlist' && play.playlist_id) {
            tally.rank('track', trackId, 'playlist', play.playlist_id, seconds, completed);
            tally.rank('playlist', play.playlist_id, 'track', trackId, seconds, completed);
            const fromPlaylist = tally.day('playlist', play.playlist_id);
            fromPlaylist.plays += 1;
            fromPlaylist.listening_seconds += seconds;
            fromPlaylist.completed += completed;
          }
          tally.visit('creator', track.creator_id, play.listener);
          tally.visit('track', trackId, play.listener);
          break;
        }
        case 'track.liked':
          both((row) => (row.likes += 1));
          break;
        case 'track.reposted':
          both((row) => (row.reposts += 1));
          break;
        case 'track.shared':
          both((row) => (row.shares += 1));
          break;
        case 'track.downloaded':
          both((row) => (row.downloads += 1));
          break;
        case 'comment.created':
          both((row) => (row.comments += 1));
          break;
        case 'user.followed':
        case 'user.unfollowed': {
          if (!event.subject.id) break;
          const creator = tally.day('creator', event.subject.id);
          if (event.type === 'user.followed') creator.follows += 1;
          else creator.unfollows += 1;
          break;
        }
        case 'product.sold': {
          const sale = (event as DomainEvent<'product.sold'>).data;
          const order = orders.get(sale.order_id);
          const item = order?.items.find((candidate) => candidate.id === sale.order_item_id);
          if (!order || !item) break;
          for (const { scope, creator_id } of sellers(item)) {
            tally.day(scope.scope_kind, scope.scope_id, creator_id).sales += 1;
            tally.sales.push({ scope, currency: order.currency, cents: item.net_cents });
          }
          break;
        }
        case 'order.refunded': {
          const order = event.subject.id ? orders.get(event.subject.id) : undefined;
          if (!order?.completedAt) break;
          for (const item of order.items) {
            for (const { scope, creator_id } of sellers(item)) {
              tally.refunds.push({
                day: dayOf(order.completedAt),
                scope,
                creator_id,
                currency: order.currency,
                cents: item.net_cents,
              });
            }
          }
          break;
        }
      }
    }
    return tally;
  }

  /**
   * Writes one day's tally. A listener's first play of the day in a scope makes them one of the
   * day's listeners and moves their last day to this one; the gap since their last day is kept when
   * it is short. A play of a day before the open one (it committed after its day was closed) is
   * counted in its day, but the windows of the days after it are left as they were.
   */
  private async applyDay(day: string, open: string, tally: DayTally): Promise<void> {
    const { store } = this.deps;
    const states = await store.listenerStates([...tally.visits.values()]);
    const arrived: Omit<ListenerState, 'last_day'>[] = [];
    const moves = new Map<string, CountAt>();
    const gaps = new Map<string, GapIncrement>();
    const counted = new Map<string, ScopeRef>();
    const move = (state: ListenerState, at: string, delta: number) => {
      const key = `${keyOf(state.scope_kind, state.scope_id)}:${at}`;
      const row = moves.get(key) ?? { scope_kind: state.scope_kind, scope_id: state.scope_id, day: at, delta: 0 };
      row.delta += delta;
      moves.set(key, row);
    };
    for (const state of states) {
      if (state.last_day !== null && state.last_day >= day) continue;
      const row = tally.day(state.scope_kind, state.scope_id);
      row.listeners += 1;
      if (state.last_day !== null && state.last_day >= weekStart(day)) row.returning_week += 1;
      if (state.last_day !== null && state.last_day >= monthStart(day)) row.returning_month += 1;
      arrived.push({ scope_kind: state.scope_kind, scope_id: state.scope_id, listener: state.listener });
      if (state.last_day !== null) move(state, state.last_day, -1);
      move(state, day, 1);
      counted.set(keyOf(state.scope_kind, state.scope_id), state);
      const gap = state.last_day === null ? null : daysBetween(state.last_day, day);
      if (gap !== null && gap <= GAP_MAX) {
        const key = `${keyOf(state.scope_kind, state.scope_id)}:${gap}`;
        const row = gaps.get(key) ?? { scope_kind: state.scope_kind, scope_id: state.scope_id, gap, listeners: 0 };
        row.listeners += 1;
        gaps.set(key, row);
      }
    }
    await store.saveListeners(day, arrived);
    await store.moveLastSeen([...moves.values()].filter((row) => row.delta !== 0));
    await store.addDays(day, [...tally.days.values()]);
    await store.addGaps(day, [...gaps.values()]);
    await store.addRanks(day, open, [...tally.ranks.values()]);
    for (const sale of tally.sales) await store.addRevenue(sale.scope, day, sale.currency, sale.cents);
    if (day === open) {
      await store.countWindows(
        day,
        [...counted.values()].map(({ scope_kind, scope_id }) => ({ scope_kind, scope_id })),
      );
    }
  }
}

function emptyDay(scope_kind: ScopeKind, scope_id: string, creator_id: string | null): DayIncrement {
  const counters = Object.fromEntries(DAY_COUNTERS.map((counter) => [counter, 0])) as DayCounters;
  return { scope_kind, scope_id, creator_id, ...counters, retention: null };
}

/** The track an event is about, if any (a sale's comes with its order). */
function trackOf(event: DomainEvent<RolledUp>): string | null {
  switch (event.type) {
    case 'comment.created':
      return (event as DomainEvent<'comment.created'>).data.track_id;
    case 'user.followed':
    case 'user.unfollowed':
    case 'product.sold':
    case 'order.refunded':
      return null;
    default:
      return event.subject.id;
  }
}

/** The order a sale or a refund is of. */
function orderOf(event: DomainEvent<RolledUp>): string | null {
  if (event.type === 'product.sold') return (event as DomainEvent<'product.sold'>).data.order_id;
  if (event.type === 'order.refunded') return event.subject.id;
  return null;
}

/** The part of the track (of RETENTION_BUCKETS equal parts) a play reached the start of, last. */
export function retentionBucket(seconds: number, duration: number): number {
  if (duration <= 0) return RETENTION_BUCKETS - 1;
  return Math.min(RETENTION_BUCKETS - 1, Math.floor((seconds / duration) * RETENTION_BUCKETS));
}

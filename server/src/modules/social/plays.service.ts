import { createHmac } from 'node:crypto';
import type { PaginationQuery, PlayRequest, PlaySource, StatsPeriod } from '@riff/contract';
import { HISTORY_MIN_SECONDS, PLAY_COUNT_SECONDS } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { forbidden, rateLimited } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { countryOf } from '../../platform/net/geo-ip.js';
import type { DailySalts } from '../../platform/privacy/daily-salt.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import type { PlaysRepository } from './plays.repository.js';
import { canSeeTrackAudience } from './social.policy.js';
import type { SocialService } from './social.service.js';
import type { TracksService } from '../tracks/tracks.service.js';

/** Comments made on a track since a time (null: ever). The comments area plugs its count in; until then 0. */
export type CommentCounter = (trackId: string, since: Date | null) => Promise<number>;

export interface PlaysServiceDeps {
  scope: DbScope;
  plays: PlaysRepository;
  social: SocialService;
  /** The track as streaming reads it (RecentTracks): a play follows a stream, and a hot track is played by many at once. */
  tracks: Pick<TracksService, 'streamable'>;
  events: EventBus;
  clock: Clock;
  limiter: Limiter;
  /** Keys the hash of an anonymous listener's address and user agent. */
  listenerKey: Buffer;
  /** The day's keyed hash of an anonymous listener, for the track.played event (analytics). */
  salts: Pick<DailySalts, 'dailyHash'>;
  comments: CommentCounter;
}

const PERIOD_DAYS: Record<Exclude<StatsPeriod, 'all'>, number> = { '7d': 7, '30d': 30, '90d': 90 };
const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Plays (one counts after 30 s, or the whole of a shorter track, at most once per listener per track
 * per 30 minutes), the listening history and the owner's stats.
 */
export class PlaysService {
  constructor(private readonly deps: PlaysServiceDeps) {}

  /** The user, else a keyed hash of address and user agent: the address itself is never stored. */
  listenerOf(actor: Actor): string {
    if (actor.kind === 'user') return `u:${actor.id}`;
    const origin = `${actor.origin.ip ?? ''}\n${actor.origin.userAgent ?? ''}`;
    return `a:${createHmac('sha256', this.deps.listenerKey).update(origin).digest('base64url')}`;
  }

  /**
   * An anonymous play's address alone, keyed and hashed like the listener (another input, so it
   * never equals a listener's hash): the bound on counted plays per address holds whatever user
   * agent is sent. A signed-in play has none (its listener is the user).
   */
  private addressOf(actor: Actor): string | null {
    if (actor.kind === 'user') return null;
    return `ip:${createHmac('sha256', this.deps.listenerKey)
      .update(`address\n${actor.origin.ip ?? ''}`)
      .digest('base64url')}`;
  }

  /**
   * The listener as analytics counts it: the user over any period, else the day's keyed hash of
   * address and user agent (`d:`), equal all of one UTC day and unlinkable to another day's once
   * that day's salt is destroyed. Not the window's listener (listenerOf): that key never changes,
   * which the 30-minute rule needs across midnight.
   */
  private async analyticsListenerOf(actor: Actor, at: Date): Promise<string> {
    if (actor.kind === 'user') return `u:${actor.id}`;
    const origin = `${actor.origin.ip ?? ''}\n${actor.origin.userAgent ?? ''}`;
    return `d:${await this.deps.salts.dailyHash(at, origin)}`;
  }

  async play(actor: Actor, trackId: string, body: PlayRequest, secret?: string) {
    const track = await this.deps.tracks.streamable(actor, trackId, secret);
    const listener = this.listenerOf(actor);
    const limit = await this.deps.limiter.consume(listener);
    if (!limit.allowed) throw rateLimited(limit.retryAfterSeconds, 'Too many plays reported; try again in a minute');
    const duration = body.duration_listened;
    const userId = actor.kind === 'user' ? actor.id : null;
    const now = this.deps.clock.now();
    const playlistId = body.playlist_id ?? null;
    // before the transaction: the day's salt is read (made on the day's first play) outside it, and kept
    const dailyListener = await this.analyticsListenerOf(actor, now);
    const counted = await this.deps.scope.transaction(async () => {
      const counted = await this.deps.plays.record({
        trackId: track.id,
        userId,
        listener,
        address: this.addressOf(actor),
        source: body.source,
        playlistId,
        duration,
        eligible: duration >= Math.min(PLAY_COUNT_SECONDS, track.duration),
        completed: track.duration > 0 && duration >= track.duration,
        forHistory: userId !== null && duration >= HISTORY_MIN_SECONDS,
        now,
      });
      // only counted plays enter analytics; the event commits with the play, or neither does
      if (counted) {
        await this.deps.events.record(actor, 'track.played', {
          subject: { resource: 'track', id: track.id },
          userId,
          // the play's own time: the listener's day and the event's are one, even at midnight
          occurredAt: now,
          data: {
            listener: dailyListener,
            source: body.source,
            playlist_id: playlistId,
            duration_listened: duration,
            country: countryOf(actor.origin.ip),
          },
        });
      }
      return counted;
    });
    return { counted };
  }

  async history(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.plays.history(actor, window);
    return {
      history: rows.map((row) => ({
        track: this.deps.social.dto(row.track, actor),
        played_at: row.played_at.toISOString(),
        duration_listened: row.duration_listened,
        source: row.source,
      })),
      pagination: paginate(window, total),
    };
  }

  async clearHistory(actor: UserActor) {
    await this.deps.scope.transaction(async () => {
      const removed = await this.deps.plays.clearHistory(actor.id);
      await this.deps.events.record(actor, 'listening_history.cleared', {
        subject: { resource: 'listening_history', id: null },
        data: { removed },
      });
    });
    return { message: 'Listening history cleared' };
  }

  async stats(actor: UserActor, trackId: string, period: StatsPeriod) {
    const track = await this.deps.social.visibleTrack(actor, trackId);
    if (!canSeeTrackAudience(actor, track)) throw forbidden('Only the owner sees a track’s statistics');
    const now = this.deps.clock.now();
    const since = period === 'all' ? null : new Date(now.getTime() - PERIOD_DAYS[period] * DAY_MS);
    const counts = await this.deps.plays.periodCounts(track.id, since);
    const sources = await this.deps.plays.sources(track.id, since);
    const plays = await this.deps.plays.dailyPlays(track.id, since);
    const likes = await this.deps.plays.dailyLikes(track.id, since);
    const social = await this.deps.plays.socialCounts(track.id, since);
    const daily: { date: string; plays: number; likes: number }[] = [];
    const first = new Date(`${dayOf(since ?? track.created_at)}T00:00:00.000Z`);
    for (let day = first; dayOf(day) <= dayOf(now); day = new Date(day.getTime() + DAY_MS)) {
      daily.push({ date: dayOf(day), plays: plays.get(dayOf(day)) ?? 0, likes: likes.get(dayOf(day)) ?? 0 });
    }
    return {
      stats: {
        period,
        play_count: counts.plays,
        unique_listeners: counts.listeners,
        like_count: [...likes.values()].reduce((sum, n) => sum + n, 0),
        repost_count: social.reposts,
        share_count: social.shares,
        comment_count: await this.deps.comments(track.id, since),
        download_count: social.downloads,
        completion_rate: counts.reported === 0 ? 0 : counts.completed / counts.reported,
        daily,
        sources: Object.fromEntries(sources.map((row) => [row.source, row.n])) as Partial<Record<PlaySource, number>>,
      },
    };
  }

  async exportFor(owner: UserActor) {
    return {
      listening_history: (await this.deps.plays.historyOf(owner.id)).map((row) => ({
        track_id: row.track_id,
        played_at: row.played_at.toISOString(),
        duration_listened: Number(row.duration_listened),
        source: row.source,
      })),
    };
  }

  async eraseFor(owner: UserActor) {
    const { history } = await this.deps.plays.eraseFor(owner.id);
    return { removed_history: history };
  }
}

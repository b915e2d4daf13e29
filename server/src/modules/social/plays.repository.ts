import { sql } from 'kysely';
import type { PlaySource } from '@riff/contract';
import { PLAY_WINDOW_MINUTES } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { likesSql } from '../playlists/likes-sql.js';
import type { TrackCounters } from '../tracks/track-counters.js';
import { trackDownloadsSql, visibleTracksSql } from '../tracks/track-sql.js';
import { keepsListeningHistorySql } from '../users/people-sql.js';
import type { Page } from './social.repository.js';

export interface PlayInput {
  trackId: string;
  userId: string | null;
  listener: string;
  /** An anonymous play's address (hashed), bounded per track and period; null for a signed-in play. */
  address: string | null;
  source: PlaySource;
  playlistId: string | null;
  duration: number;
  /** Long enough to count (30 s or the whole track). */
  eligible: boolean;
  completed: boolean;
  /** Signed in and long enough for the history (the preference is read in the statement). */
  forHistory: boolean;
  /** The service's clock (so the 30-minute rule can be tested without waiting). */
  now: Date;
}

/** Counted anonymous plays of one track from one address: at most `max` per `periodHours`. */
export interface AddressBound {
  max: number;
  periodHours: number;
}

export interface PeriodCounts {
  plays: number;
  listeners: number;
  reported: number;
  completed: number;
}

/** All SQL of plays, the listening history and the owner's stats. */
export class PlaysRepository {
  constructor(
    private readonly scope: DbScope,
    private readonly bound: AddressBound,
    /** The tracks area's step of the statement: a counted play raises play_count. */
    private readonly counters: Pick<TrackCounters, 'countPlaySql'>,
  ) {}

  private get db() {
    return this.scope.db;
  }

  /** The platform's figures: counted plays since. */
  async countedSince(since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('track_plays')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('counted', '=', true)
      .where('played_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * One statement, so one round trip and atomic without a transaction: the listener's window row
   * is inserted, or moved when its last counted play is 30 minutes old (the unique key makes
   * concurrent plays of one listener wait for each other, and only the first passes the WHERE);
   * then an anonymous play takes one of its address's counted plays of the period (the same unique
   * key rule: concurrent plays from one address are counted one after the other, and one past the
   * bound is not); only then play_count goes up. A play refused by the address bound still moves
   * its listener's window: that listener could not have counted in it anyway. The play itself is
   * recorded for the stats, and the history entry unless the user turned the history off
   * (privacy.show_listening_history false). play_count is the tracks area's step of the statement.
   */
  async record(play: PlayInput): Promise<boolean> {
    const period = this.bound.periodHours;
    const result = await sql<{ counted: boolean }>`
      with win as (
        insert into track_play_windows (track_id, listener, counted_at)
        select ${play.trackId}::uuid, ${play.listener}, ${play.now}::timestamptz where ${play.eligible}::boolean
        on conflict (track_id, listener) do update set counted_at = excluded.counted_at
          where track_play_windows.counted_at <= excluded.counted_at - make_interval(mins => ${PLAY_WINDOW_MINUTES}::int)
        returning track_id
      ),
      addr as (
        insert into track_play_address_windows as w (track_id, address, period_start, plays)
        select track_id, ${play.address}::text, ${play.now}::timestamptz, 1 from win where ${play.address}::text is not null
        on conflict (track_id, address) do update set
          plays = case when w.period_start <= excluded.period_start - make_interval(hours => ${period}::int) then 1 else w.plays + 1 end,
          period_start = case when w.period_start <= excluded.period_start - make_interval(hours => ${period}::int) then excluded.period_start else w.period_start end
          where w.period_start <= excluded.period_start - make_interval(hours => ${period}::int) or w.plays < ${this.bound.max}::int
        returning track_id
      ),
      counted as (
        select track_id from win where ${play.address}::text is null
        union all
        select track_id from addr
      ),
      bump as (${this.counters.countPlaySql(sql`select track_id from counted`)}),
      played as (
        insert into track_plays (track_id, user_id, listener, source, playlist_id, duration_listened, completed, counted, played_at)
        select ${play.trackId}::uuid, ${play.userId}::uuid, ${play.listener}, ${play.source}, ${play.playlistId}::uuid,
               ${play.duration}::double precision, ${play.completed}::boolean, exists (select 1 from counted), ${play.now}::timestamptz
      ),
      history as (
        insert into listening_history (user_id, track_id, source, duration_listened, played_at)
        select ${play.userId}::uuid, ${play.trackId}::uuid, ${play.source}, ${play.duration}::double precision, ${play.now}::timestamptz
        where ${play.forHistory}::boolean and ${keepsListeningHistorySql(play.userId)}
      )
      select exists (select 1 from counted) as counted`.execute(this.db);
    return result.rows[0]?.counted === true;
  }

  // ---- history

  /** The user's history of tracks they may still see as a listener (live, public or their own, whatever their role). */
  async history(
    actor: UserActor,
    page: Page,
  ): Promise<{
    rows: { track: TrackRow; played_at: Date; duration_listened: number; source: PlaySource }[];
    total: number;
  }> {
    const base = this.db
      .selectFrom('listening_history as h')
      .innerJoin(visibleTracksSql({ ...actor, isAdmin: false }).as('t'), 't.id', 'h.track_id')
      .where('h.user_id', '=', actor.id);
    const rows = await base
      .selectAll('t')
      .select(['h.played_at as h_played_at', 'h.duration_listened as h_duration', 'h.source as h_source'])
      .orderBy('h.played_at', 'desc')
      .orderBy('h.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return {
      rows: rows.map(({ h_played_at, h_duration, h_source, ...track }) => ({
        track,
        played_at: h_played_at,
        duration_listened: Number(h_duration),
        source: h_source,
      })),
      total: Number(n),
    };
  }

  async clearHistory(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('listening_history').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  historyOf(userId: string) {
    return this.db
      .selectFrom('listening_history')
      .select(['track_id', 'played_at', 'duration_listened', 'source'])
      .where('user_id', '=', userId)
      .orderBy('played_at')
      .orderBy('id')
      .execute();
  }

  /** Erasure: the history goes; plays stay in the owners' stats without naming the user. */
  async eraseFor(userId: string): Promise<{ history: number }> {
    const history = await this.clearHistory(userId);
    await this.db
      .updateTable('track_plays')
      .set({ user_id: null, listener: sql`'erased:' || md5(listener)` })
      .where('user_id', '=', userId)
      .execute();
    await this.db.deleteFrom('track_play_windows').where('listener', '=', `u:${userId}`).execute();
    return { history };
  }

  // ---- stats (since: null for the whole life of the track)

  async periodCounts(trackId: string, since: Date | null): Promise<PeriodCounts> {
    const row = await this.db
      .selectFrom('track_plays')
      .select([
        sql<number>`count(*) filter (where counted)`.as('plays'),
        sql<number>`count(distinct listener) filter (where counted)`.as('listeners'),
        sql<number>`count(*)`.as('reported'),
        sql<number>`count(*) filter (where completed)`.as('completed'),
      ])
      .where('track_id', '=', trackId)
      .$if(since !== null, (query) => query.where('played_at', '>=', since!))
      .executeTakeFirstOrThrow();
    return {
      plays: Number(row.plays),
      listeners: Number(row.listeners),
      reported: Number(row.reported),
      completed: Number(row.completed),
    };
  }

  async sources(trackId: string, since: Date | null): Promise<{ source: PlaySource; n: number }[]> {
    const rows = await this.db
      .selectFrom('track_plays')
      .select(['source', (eb) => eb.fn.countAll<number>().as('n')])
      .where('track_id', '=', trackId)
      .where('counted', '=', true)
      .$if(since !== null, (query) => query.where('played_at', '>=', since!))
      .groupBy('source')
      .execute();
    return rows.map((row) => ({ source: row.source, n: Number(row.n) }));
  }

  async dailyPlays(trackId: string, since: Date | null): Promise<Map<string, number>> {
    const rows = await sql<{ day: string; n: number }>`
      select to_char(played_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n from track_plays
       where track_id = ${trackId} and counted and (${since}::timestamptz is null or played_at >= ${since}::timestamptz)
       group by 1`.execute(this.db);
    return new Map(rows.rows.map((row) => [row.day, Number(row.n)]));
  }

  async dailyLikes(trackId: string, since: Date | null): Promise<Map<string, number>> {
    const rows = await sql<{ day: string; n: number }>`
      select to_char(l.liked_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*) as n
        from ${likesSql()} l
       where l.track_id = ${trackId} and (${since}::timestamptz is null or l.liked_at >= ${since}::timestamptz)
       group by 1`.execute(this.db);
    return new Map(rows.rows.map((row) => [row.day, Number(row.n)]));
  }

  /** Reposts, shares and downloads made since (likes come from dailyLikes). */
  async socialCounts(
    trackId: string,
    since: Date | null,
  ): Promise<{ reposts: number; shares: number; downloads: number }> {
    const result = await sql<{ reposts: number; shares: number; downloads: number }>`
      select (select count(*) from track_reposts where track_id = ${trackId} and (${since}::timestamptz is null or created_at >= ${since}::timestamptz)) as reposts,
             (select count(*) from track_shares where track_id = ${trackId} and (${since}::timestamptz is null or created_at >= ${since}::timestamptz)) as shares,
             (select count(*) from ${trackDownloadsSql()} d where d.track_id = ${trackId} and (${since}::timestamptz is null or d.downloaded_at >= ${since}::timestamptz)) as downloads`.execute(
      this.db,
    );
    const row = result.rows[0];
    return {
      reposts: Number(row?.reposts ?? 0),
      shares: Number(row?.shares ?? 0),
      downloads: Number(row?.downloads ?? 0),
    };
  }
}

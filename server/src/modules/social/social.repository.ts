import { sql, type SqlBool } from 'kysely';
import type { SharePlatform } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { likesSql } from '../playlists/likes-sql.js';
import { publicTracksSql, visibleTracksSql } from '../tracks/track-sql.js';
import { activeUserSql, followeesSql, notBlockedSql } from '../users/people-sql.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface FeedRow {
  type: 'upload' | 'repost';
  track_id: string;
  actor_id: string;
  at: Date;
}

/** All SQL of likes lists, reposts and the feed, shares and secret links. */
export class SocialRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Not a track (aliased t) of a user the actor blocked or who blocked the actor. */
  private static unblocked(actor: Actor) {
    return actor.id === null ? sql<SqlBool>`true` : notBlockedSql(actor.id, 't.creator_id');
  }

  // ---- likes (entries of the favorites playlists)

  /** Likers of a track, newest like first: users others may see (their ids, for PeopleReader.profiles). */
  async likers(trackId: string, page: Page): Promise<{ ids: string[]; total: number }> {
    const base = this.db
      .selectFrom(likesSql().as('l'))
      .where('l.track_id', '=', trackId)
      .where(activeUserSql('l.user_id'));
    const rows = await base
      .select('l.user_id')
      .orderBy('l.liked_at', 'desc')
      .orderBy('l.user_id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { ids: rows.map((row) => row.user_id), total: Number(n) };
  }

  /** Tracks a user liked that the actor may see (not of users blocked either way), newest like first. */
  async likedTracks(userId: string, actor: Actor, page: Page): Promise<{ rows: TrackRow[]; total: number }> {
    const base = this.db
      .selectFrom(likesSql().as('l'))
      .innerJoin(visibleTracksSql(actor).as('t'), 't.id', 'l.track_id')
      .where('l.user_id', '=', userId)
      .where(SocialRepository.unblocked(actor));
    const rows = await base
      .selectAll('t')
      .orderBy('l.liked_at', 'desc')
      .orderBy('t.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** The user's likes for the data export, oldest first. */
  likesOf(userId: string) {
    return this.db
      .selectFrom(likesSql().as('l'))
      .select(['l.track_id', 'l.liked_at'])
      .where('l.user_id', '=', userId)
      .orderBy('l.liked_at')
      .execute();
  }

  // ---- reposts and the feed

  async repost(userId: string, trackId: string): Promise<boolean> {
    const result = await this.db
      .insertInto('track_reposts')
      .values({ user_id: userId, track_id: trackId })
      .onConflict((oc) => oc.columns(['user_id', 'track_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async unrepost(userId: string, trackId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('track_reposts')
      .where('user_id', '=', userId)
      .where('track_id', '=', trackId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** A user's reposts of public tracks (not of users blocked either way with the actor), newest first. */
  async repostedTracks(userId: string, actor: Actor, page: Page): Promise<{ rows: TrackRow[]; total: number }> {
    const base = this.db
      .selectFrom('track_reposts as r')
      .innerJoin(visibleTracksSql(actor).as('t'), 't.id', 'r.track_id')
      .where('r.user_id', '=', userId)
      .where('t.is_public', '=', true)
      .where(SocialRepository.unblocked(actor));
    const rows = await base
      .selectAll('t')
      .orderBy('r.created_at', 'desc')
      .orderBy('t.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  repostsOf(userId: string) {
    return this.db
      .selectFrom('track_reposts')
      .select(['track_id', 'created_at as reposted_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Public uploads and reposts of the people the user follows, newest first; blocked users either way left out. */
  async feed(userId: string, page: Page): Promise<{ rows: FeedRow[]; total: number }> {
    const items = sql`
      select 'upload' as type, t.id as track_id, t.creator_id as actor_id, t.created_at as at
        from ${publicTracksSql()} t
       where t.creator_id in ${followeesSql(userId)}
      union all
      select 'repost', t.id, r.user_id, r.created_at
        from track_reposts r join ${publicTracksSql()} t on t.id = r.track_id
       where r.user_id in ${followeesSql(userId)} and t.creator_id <> ${userId} and ${notBlockedSql(userId, 't.creator_id')}`;
    const visible = sql`select i.* from (${items}) i where ${activeUserSql('i.actor_id')}`;
    const rows =
      await sql<FeedRow>`${visible} order by at desc, track_id, type limit ${page.limit} offset ${page.offset}`.execute(
        this.db,
      );
    const counted = await sql<{ n: number }>`select count(*) as n from (${visible}) v`.execute(this.db);
    return { rows: rows.rows, total: Number(counted.rows[0]?.n ?? 0) };
  }

  // ---- shares and the secret link

  async recordShare(trackId: string, userId: string | null, platform: SharePlatform): Promise<void> {
    await this.db.insertInto('track_shares').values({ track_id: trackId, user_id: userId, platform }).execute();
  }

  /** When the user last shared each of these tracks (tracks they never shared are left out). */
  async lastSharedBy(userId: string, trackIds: readonly string[]): Promise<Map<string, Date>> {
    if (trackIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('track_shares')
      .select((eb) => ['track_id', eb.fn.max('created_at').as('at')])
      .where('user_id', '=', userId)
      .where('track_id', 'in', [...trackIds])
      .groupBy('track_id')
      .execute();
    return new Map(rows.map((row) => [row.track_id, new Date(row.at as Date)]));
  }

  sharesOf(userId: string) {
    return this.db
      .selectFrom('track_shares')
      .select(['track_id', 'platform', 'created_at as shared_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .execute();
  }

  /** Account erasure: reposts go; shares stay counted on the tracks without naming the user. */
  async eraseFor(userId: string): Promise<{ reposts: number }> {
    const reposts = await this.db.deleteFrom('track_reposts').where('user_id', '=', userId).executeTakeFirst();
    await this.db.updateTable('track_shares').set({ user_id: null }).where('user_id', '=', userId).execute();
    return { reposts: Number(reposts.numDeletedRows) };
  }
}

import { sql, type SqlBool } from 'kysely';
import type { SharePlatform } from '@riff/contract';
import type { TrackRow } from '../tracks/tracks.tables.js';
import type { UserRow } from '../users/users.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';

export interface Page {
  limit: number;
  offset: number;
}

/** Who reads a list of tracks: what they may see of private tracks. */
export interface Viewer {
  id: string | null;
  isAdmin: boolean;
}

export interface FeedRow {
  type: 'upload' | 'repost';
  track_id: string;
  actor_id: string;
  at: Date;
}

/** A user as others may see them: not deleted, active, not banned, verified. */
const ACTIVE_USER = sql<SqlBool>`u.deleted_at is null and u.is_active and not u.is_banned and u.is_verified`;

/** All SQL of likes lists, reposts and the feed, shares and secret links. */
export class SocialRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  usersByIds(ids: string[]): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  /** A user the viewer may see (the rules of GET /users/{id}: not deleted, active, verified, not blocking the viewer). */
  async visibleUser(id: string, viewerId: string | null): Promise<boolean> {
    const row = await this.db
      .selectFrom('users as u')
      .select('u.id')
      .where('u.id', '=', id)
      .where((eb) => eb.or([sql<SqlBool>`${ACTIVE_USER}`, ...(viewerId ? [eb('u.id', '=', viewerId)] : [])]))
      .where((eb) =>
        viewerId
          ? eb.not(
              eb.exists(
                eb
                  .selectFrom('blocks as b')
                  .select('b.blocker_id')
                  .whereRef('b.blocker_id', '=', 'u.id')
                  .where('b.blocked_id', '=', viewerId),
              ),
            )
          : sql<SqlBool>`true`,
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  async blockedEitherWay(a: string, b: string): Promise<boolean> {
    if (a === b) return false;
    const row = await this.db
      .selectFrom('blocks')
      .select('blocker_id')
      .where((eb) =>
        eb.or([
          eb.and([eb('blocker_id', '=', a), eb('blocked_id', '=', b)]),
          eb.and([eb('blocker_id', '=', b), eb('blocked_id', '=', a)]),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Tracks (aliased t) the viewer may see (public, their own, every one for an admin), not of users blocked either way. */
  private seenBy(viewer: Viewer) {
    const visible = viewer.isAdmin
      ? sql`true`
      : viewer.id
        ? sql`(t.is_public or t.creator_id = ${viewer.id})`
        : sql`t.is_public`;
    return sql<SqlBool>`t.deleted_at is null and ${visible} and ${viewer.id ? notBlocked(viewer.id) : sql`true`}`;
  }

  // ---- likes (entries of the favorites playlists)

  /** Likers of a track, newest like first: users others may see. */
  async likers(trackId: string, page: Page): Promise<{ rows: UserRow[]; total: number }> {
    const base = this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin('playlists as p', (join) =>
        join.onRef('p.id', '=', 'pt.playlist_id').on('p.is_default_favorites', '=', true),
      )
      .innerJoin('users as u', 'u.id', 'p.user_id')
      .where('pt.track_id', '=', trackId)
      .where(ACTIVE_USER);
    const rows = await base
      .selectAll('u')
      .orderBy('pt.added_at', 'desc')
      .orderBy('u.id')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(n) };
  }

  /** Tracks a user liked that the viewer may see, newest like first. */
  async likedTracks(userId: string, viewer: Viewer, page: Page): Promise<{ rows: TrackRow[]; total: number }> {
    const base = this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin('playlists as p', (join) =>
        join.onRef('p.id', '=', 'pt.playlist_id').on('p.is_default_favorites', '=', true),
      )
      .innerJoin('tracks as t', 't.id', 'pt.track_id')
      .where('p.user_id', '=', userId)
      .where(this.seenBy(viewer));
    const rows = await base
      .selectAll('t')
      .orderBy('pt.added_at', 'desc')
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
      .selectFrom('playlist_tracks as pt')
      .innerJoin('playlists as p', (join) =>
        join.onRef('p.id', '=', 'pt.playlist_id').on('p.is_default_favorites', '=', true),
      )
      .select(['pt.track_id', 'pt.added_at as liked_at'])
      .where('p.user_id', '=', userId)
      .orderBy('pt.added_at')
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

  /** A user's reposts of public tracks, newest first. */
  async repostedTracks(userId: string, viewer: Viewer, page: Page): Promise<{ rows: TrackRow[]; total: number }> {
    const base = this.db
      .selectFrom('track_reposts as r')
      .innerJoin('tracks as t', 't.id', 'r.track_id')
      .where('r.user_id', '=', userId)
      .where('t.is_public', '=', true)
      .where(this.seenBy(viewer));
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
        from follows f join tracks t on t.creator_id = f.followee_id
       where f.follower_id = ${userId} and t.is_public and t.deleted_at is null
      union all
      select 'repost', t.id, r.user_id, r.created_at
        from follows f join track_reposts r on r.user_id = f.followee_id join tracks t on t.id = r.track_id
       where f.follower_id = ${userId} and t.is_public and t.deleted_at is null and t.creator_id <> ${userId}
         and not exists (select 1 from blocks b where (b.blocker_id = ${userId} and b.blocked_id = t.creator_id)
                                              or (b.blocker_id = t.creator_id and b.blocked_id = ${userId}))`;
    const visible = sql`select i.* from (${items}) i join users u on u.id = i.actor_id where ${ACTIVE_USER}`;
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

/** Not a track (aliased t) of a user the viewer blocked or who blocked the viewer. */
export const notBlocked = (viewerId: string) =>
  sql<SqlBool>`not exists (select 1 from blocks b where (b.blocker_id = ${viewerId} and b.blocked_id = t.creator_id) or (b.blocker_id = t.creator_id and b.blocked_id = ${viewerId}))`;

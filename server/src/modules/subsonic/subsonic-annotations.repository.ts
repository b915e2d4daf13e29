import { type Insertable, type Selectable, type SqlBool, sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import { activeUserSql, followeesSql, keepsListeningHistoryOfSql, notBlockedSql } from '../users/people-sql.js';
import type { RatedItemType, SubsonicNowPlayingTable, SubsonicRatingsTable } from './subsonic.tables.js';

export type RatingRow = Selectable<SubsonicRatingsTable>;
export type NowPlayingRow = Selectable<SubsonicNowPlayingTable>;

/**
 * All SQL of the subsonic area's annotations: ratings (setRating) and what each user's player is
 * playing (scrobble with submission=false). Who may see a rated item or a played track is the
 * catalogue's question, not this repository's.
 */
export class SubsonicAnnotationsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async rate(userId: string, item: { id: string; type: RatedItemType }, rating: number, now: Date): Promise<void> {
    await this.db
      .insertInto('subsonic_ratings')
      .values({ user_id: userId, item_id: item.id, item_type: item.type, rating, rated_at: now })
      .onConflict((conflict) =>
        conflict.columns(['user_id', 'item_id']).doUpdateSet({ item_type: item.type, rating, rated_at: now }),
      )
      .execute();
  }

  async unrate(userId: string, itemId: string): Promise<void> {
    await this.db.deleteFrom('subsonic_ratings').where('user_id', '=', userId).where('item_id', '=', itemId).execute();
  }

  /** The user's ratings of these items, by item id. */
  async ratingsOf(userId: string, itemIds: readonly string[]): Promise<Map<string, number>> {
    if (itemIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('subsonic_ratings')
      .select(['item_id', 'rating'])
      .where('user_id', '=', userId)
      .where('item_id', 'in', [...new Set(itemIds)])
      .execute();
    return new Map(rows.map((row) => [row.item_id, row.rating]));
  }

  /** The user's player now plays this track (replacing what it played before). */
  async nowPlaying(row: Insertable<SubsonicNowPlayingTable>): Promise<void> {
    const { track_id, client, started_at, expires_at } = row;
    await this.db
      .insertInto('subsonic_now_playing')
      .values(row)
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ track_id, client, started_at, expires_at }))
      .execute();
  }

  /**
   * What the users `viewerId` follows are playing now, most recent first: of accounts others may
   * deal with, neither blocking the other, who show their listening (privacy.show_listening_history).
   * Whether the viewer may see each track is left to the catalogue.
   */
  playingAmongFollowed(viewerId: string, now: Date): Promise<NowPlayingRow[]> {
    return this.db
      .selectFrom('subsonic_now_playing as np')
      .selectAll('np')
      .where(sql<SqlBool>`np.user_id in ${followeesSql(viewerId)}`)
      .where('np.expires_at', '>', now)
      .where(activeUserSql('np.user_id'))
      .where(notBlockedSql(viewerId, 'np.user_id'))
      .where(keepsListeningHistoryOfSql('np.user_id'))
      .orderBy('np.started_at', 'desc')
      .orderBy('np.user_id')
      .execute();
  }

  async exportOf(userId: string): Promise<{ ratings: RatingRow[]; nowPlaying: NowPlayingRow | undefined }> {
    const ratings = await this.db
      .selectFrom('subsonic_ratings')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('rated_at')
      .orderBy('item_id')
      .execute();
    const nowPlaying = await this.db
      .selectFrom('subsonic_now_playing')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { ratings, nowPlaying };
  }

  async eraseOf(userId: string): Promise<{ ratings: number; nowPlaying: number }> {
    const ratings = await this.db.deleteFrom('subsonic_ratings').where('user_id', '=', userId).executeTakeFirst();
    const nowPlaying = await this.db
      .deleteFrom('subsonic_now_playing')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return { ratings: Number(ratings.numDeletedRows), nowPlaying: Number(nowPlaying.numDeletedRows) };
  }
}

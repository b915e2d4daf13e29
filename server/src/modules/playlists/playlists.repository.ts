import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';

export const FAVORITES_TITLE = 'Favorites';

/**
 * All SQL of playlists and their tracks. For now what the favorites playlist needs; the
 * playlists area adds the rest here. Positions stay 0…n-1 without gaps after every change.
 */
export class PlaylistsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The user's favorites playlist, made on first need (one per user: a unique partial index). */
  async favoritesOf(userId: string): Promise<{ id: string }> {
    await sql`insert into playlists (user_id, title, is_public, is_default_favorites)
              values (${userId}, ${FAVORITES_TITLE}, false, true)
              on conflict (user_id) where is_default_favorites do nothing`.execute(this.db);
    return this.db.selectFrom('playlists').select('id').where('user_id', '=', userId).where('is_default_favorites', '=', true).executeTakeFirstOrThrow();
  }

  findFavorites(userId: string): Promise<{ id: string } | undefined> {
    return this.db.selectFrom('playlists').select('id').where('user_id', '=', userId).where('is_default_favorites', '=', true).executeTakeFirst();
  }

  /** Serializes changes to one playlist's tracks (positions are computed from the rest). */
  async lock(playlistId: string): Promise<void> {
    await this.db.selectFrom('playlists').select('id').where('id', '=', playlistId).forUpdate().executeTakeFirst();
  }

  /** Appends the track; false when it was already there. Call under lock(). */
  async append(playlistId: string, trackId: string, addedBy: string): Promise<boolean> {
    const row = await this.db
      .insertInto('playlist_tracks')
      .values((eb) => ({
        playlist_id: playlistId,
        track_id: trackId,
        added_by: addedBy,
        position: eb.selectFrom('playlist_tracks').select((inner) => inner.fn.countAll<number>().as('n')).where('playlist_id', '=', playlistId),
      }))
      .onConflict((oc) => oc.columns(['playlist_id', 'track_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) await this.touch(playlistId);
    return row !== undefined;
  }

  /** Removes the track and closes the gap; false when it was not there. Call under lock(). */
  async remove(playlistId: string, trackId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('playlist_tracks')
      .where('playlist_id', '=', playlistId)
      .where('track_id', '=', trackId)
      .returning('position')
      .executeTakeFirst();
    if (!removed) return false;
    await this.db
      .updateTable('playlist_tracks')
      .set((eb) => ({ position: eb('position', '-', 1) }))
      .where('playlist_id', '=', playlistId)
      .where('position', '>', removed.position)
      .execute();
    await this.touch(playlistId);
    return true;
  }

  private async touch(playlistId: string): Promise<void> {
    await this.db.updateTable('playlists').set({ updated_at: new Date() }).where('id', '=', playlistId).execute();
  }

  async contains(playlistId: string, trackId: string): Promise<boolean> {
    const row = await this.db.selectFrom('playlist_tracks').select('id').where('playlist_id', '=', playlistId).where('track_id', '=', trackId).executeTakeFirst();
    return row !== undefined;
  }

  /** like_count follows the favorites playlists: kept on the track for its readers. */
  async addToLikeCount(trackId: string, delta: 1 | -1): Promise<void> {
    await this.db
      .updateTable('tracks')
      .set((eb) => ({ like_count: sql<number>`greatest(0, ${eb.ref('like_count')} + ${delta})` }))
      .where('id', '=', trackId)
      .execute();
  }

  /** Track ids of the favorites playlist, for erasure. */
  async favoriteTrackIds(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('playlist_tracks as pt')
      .innerJoin('playlists as p', 'p.id', 'pt.playlist_id')
      .select('pt.track_id')
      .where('p.user_id', '=', userId)
      .where('p.is_default_favorites', '=', true)
      .execute();
    return rows.map((row) => row.track_id);
  }

  async removeAllOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('playlists').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

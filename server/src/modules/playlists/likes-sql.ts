import { type RawBuilder, sql } from 'kysely';

/** A like: an entry of a user's favorites playlist. */
export interface LikeRow {
  user_id: string;
  track_id: string;
  liked_at: Date;
}

/**
 * Every like (the entries of the favorites playlists) as a derived table for other areas' reads
 * that page or count likes in one query (a track's likers, a user's liked tracks, a track's stats):
 * `from ${likesSql()} l where l.track_id = …`. The playlists area keeps the rule that a like is
 * an entry of the default favorites playlist; the caller names only its alias.
 */
export function likesSql(): RawBuilder<LikeRow> {
  return sql<LikeRow>`(select favorites.user_id, liked.track_id, liked.added_at as liked_at
    from playlist_tracks liked join playlists favorites on favorites.id = liked.playlist_id and favorites.is_default_favorites)`;
}

import { type RawBuilder, sql } from 'kysely';
import { type Actor, anonymousActor } from '../../platform/access/actor.js';
import type { TrackAlbumRow, TrackRow } from './tracks.tables.js';
import { trackVisibleSql } from './tracks.policy.js';

/**
 * SQL fragments over the tracks area's tables for reads of other areas that join, page or count
 * tracks in one query (a playlist's entries, a likes list, the feed, a track's stats). Each is a
 * derived table to alias in the caller's query (`join ${visibleTracksSql(actor)} t on t.id = …`):
 * the rules and the table names stay here, the caller names only its own columns and aliases.
 * PostgreSQL folds such a subquery into the outer query, so the plan is that of a plain join.
 */

/** The tracks the actor may see (canReadTrack without secret links: TrackReader.visibleSql), whole rows. */
export function visibleTracksSql(actor: Actor): RawBuilder<TrackRow> {
  return sql<TrackRow>`(select * from tracks visible_track where ${trackVisibleSql(actor, 'visible_track')})`;
}

/** Every live (not deleted) track, whoever asks: for totals that do not depend on the caller. */
export function liveTracksSql(): RawBuilder<TrackRow> {
  return sql<TrackRow>`(select * from tracks live_track where live_track.deleted_at is null)`;
}

/** Every counted download of a track's original (its stats count them): track_id, downloaded_at. */
export function trackDownloadsSql(): RawBuilder<{ track_id: string; downloaded_at: Date }> {
  return sql<{
    track_id: string;
    downloaded_at: Date;
  }>`(select download.track_id, download.downloaded_at from track_downloads download)`;
}

/**
 * The albums of the published tracks (public, ready to play, not hidden or removed), one row each,
 * kept in step with tracks by the database: an album list is an index range (by created, by
 * riff_norm(name) in byte order, by lower(genre), by year, by shuffle, by creator). Whose creator
 * the reader may deal with is theirs to ask (blocks, inactive accounts); the reader's own albums,
 * private and moderated tracks included, are theirs to read from their tracks by album_id.
 */
export function publishedAlbumsSql(): RawBuilder<TrackAlbumRow> {
  return sql<TrackAlbumRow>`(select * from track_albums)`;
}

/**
 * One creator's albums as they see them: of every live track of theirs that finished processing,
 * private and moderated ones included. Computed as the database computes track_albums (migration
 * 0032's riff_refresh_albums), column for column, so that a creator's published album reads the same
 * from either (a test compares them).
 */
export function creatorAlbumsSql(creatorId: string): RawBuilder<TrackAlbumRow> {
  return sql<TrackAlbumRow>`(select own.album_id, own.creator_id,
      (array_agg(case when riff_album_key(own.album) is null then own.title else btrim(own.album) end
        order by own.created_at, own.id))[1] as name,
      count(*)::int as song_count, coalesce(sum(own.duration), 0)::int as duration, min(own.created_at) as created,
      max(own.year) as year, min(nullif(btrim(own.genre), '')) as genre,
      (('x' || substr(md5(own.album_id::text), 1, 13))::bit(52)::bigint / 4503599627370496.0)::float8 as shuffle
    from tracks own where own.creator_id = ${creatorId} and own.deleted_at is null and own.status = 'completed'
    group by own.album_id, own.creator_id)`;
}

/** Every live public track: what anyone may see (a feed's uploads and reposts). */
export function publicTracksSql(): RawBuilder<TrackRow> {
  return visibleTracksSql(anonymousActor());
}

import { type RawBuilder, sql } from 'kysely';
import { type Actor, anonymousActor } from '../../platform/access/actor.js';
import type { TrackRow } from './tracks.tables.js';
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

/** Every live public track: what anyone may see (a feed's uploads and reposts). */
export function publicTracksSql(): RawBuilder<TrackRow> {
  return visibleTracksSql(anonymousActor());
}

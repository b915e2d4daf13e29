import { type RawBuilder, sql } from 'kysely';

/**
 * SQL over the media area's track_versions for the tracks area's quota, which sums in one query
 * over a user's live tracks: the caller names only its own column holding a track id.
 */

/** Bytes held by the track's older (not current) audio versions: they count against the quota too. */
export function olderVersionsBytesSql(trackIdColumn: string): RawBuilder<number> {
  return sql<number>`(select coalesce(sum(older_version.file_size), 0) from track_versions older_version
    where older_version.track_id = ${sql.ref(trackIdColumn)} and not older_version.is_current)`;
}

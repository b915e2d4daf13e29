import { type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * SQL over the tracks table for other areas' reads that keep, in one query, only rows about a live
 * track (an export of someone's comments): the rule stays beside its table, the caller names only
 * its own column holding a track id.
 */
export function liveTrackSql(trackIdColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from tracks live_track where live_track.id = ${sql.ref(trackIdColumn)}
    and live_track.deleted_at is null)`;
}

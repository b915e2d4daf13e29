import { type RawBuilder, sql } from 'kysely';
import type { PlaySource } from '@riff/contract';

/** A counted play (one that raised play_count): who played which track, from where. */
export interface CountedPlayRow {
  track_id: string;
  /** null for an anonymous or erased listener. */
  user_id: string | null;
  source: PlaySource;
  playlist_id: string | null;
  played_at: Date;
}

/**
 * Every counted play as a derived table, for other areas' reads that rank or count by plays in one
 * query (playlists' recommendations and analytics): `from ${countedPlaysSql()} play where …`. The
 * social area keeps which plays count; the caller names only its alias.
 */
export function countedPlaysSql(): RawBuilder<CountedPlayRow> {
  return sql<CountedPlayRow>`(select counted_play.track_id, counted_play.user_id, counted_play.source, counted_play.playlist_id,
    counted_play.played_at
    from track_plays counted_play where counted_play.counted)`;
}

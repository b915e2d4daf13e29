import { type RawBuilder, sql } from 'kysely';
import type { TracksRepository } from './tracks.repository.js';

/**
 * The counters the tracks area keeps on a track for changes other areas make, where no event says
 * so. Likes are counted from the playlists area's track.liked and track.unliked (tracks.events.ts);
 * an erased account's likes go without an event each, so the playlists area says so here. Plays
 * are counted inside the social area's statement that records them (countPlaySql).
 */
export interface TrackCounters {
  /** The erased account's likes leave these tracks' like_count (each track once). */
  withdrawLikes(trackIds: readonly string[]): Promise<void>;
  /**
   * The step that raises play_count, for the social area's statement that counts a play: the body
   * of a data-modifying WITH query. `countedTrack` is a select of the counted track's id (one row,
   * or none when the play did not count).
   * One statement keeps the play and its count atomic in one round trip on the hottest path,
   * without a transaction around it; the UPDATE stays the tracks area's.
   */
  countPlaySql(countedTrack: RawBuilder<unknown>): RawBuilder<unknown>;
}

export function createTrackCounters(tracks: TracksRepository): TrackCounters {
  return {
    withdrawLikes: (trackIds) => tracks.addToLikeCount(trackIds, -1),
    countPlaySql: (countedTrack) =>
      sql`update tracks set play_count = play_count + 1 where id = (${countedTrack}) returning id`,
  };
}

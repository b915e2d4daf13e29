import type { TracksRepository } from './tracks.repository.js';

/**
 * The counters the tracks area keeps on a track for changes other areas make, where no event says
 * so. Likes are counted from the playlists area's track.liked and track.unliked (tracks.events.ts);
 * an erased account's likes go without an event each, so the playlists area says so here.
 */
export interface TrackCounters {
  /** The erased account's likes leave these tracks' like_count (each track once). */
  withdrawLikes(trackIds: readonly string[]): Promise<void>;
}

export function createTrackCounters(tracks: TracksRepository): TrackCounters {
  return { withdrawLikes: (trackIds) => tracks.addToLikeCount(trackIds, -1) };
}

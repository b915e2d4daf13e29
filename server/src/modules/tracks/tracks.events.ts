// The tracks area's domain events: each becomes an audit entry (resource = its subject);
// the media pipeline, search and webhooks will handle them after commit.
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { TracksRepository } from './tracks.repository.js';

type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'track.uploaded': { bytes: number; format: string };
    'track.upload_started': { total_size: number };
    'track.upload_cancelled': Nothing;
    'track.updated': { fields: string[]; batch?: true };
    'track.deleted': Nothing;
    'track.lyrics_updated': Nothing;
    /** A download of the original (its format), for the owner's analytics; not audited (a measurement). */
    'track.downloaded': { format: string };
  }
}

/**
 * A track's like_count is the number of favorites playlists holding it. The playlists area owns
 * those playlists and records track.liked and track.unliked with each change; this keeps the count
 * in the same transaction, so the count and the playlists never disagree.
 */
export function countLikes(tracks: TracksRepository): EventHandler<'track.liked' | 'track.unliked'> {
  return {
    name: 'tracks.count-likes',
    types: ['track.liked', 'track.unliked'],
    delivery: 'in-transaction',
    handle: async (event) => {
      if (event.subject.id) await tracks.addToLikeCount([event.subject.id], event.type === 'track.liked' ? 1 : -1);
    },
  };
}

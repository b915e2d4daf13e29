// The comments area's domain events: each becomes an audit entry of the actor (resource comment).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'comment.created': { track_id: string; parent_id: string | null; timestamp: number };
    'comment.updated': { track_id: string };
    /** kept: the comment stays as a tombstone because it has replies; role: who deleted it. */
    'comment.deleted': {
      track_id: string;
      parent_id: string | null;
      kept: boolean;
      role: 'author' | 'track_owner' | 'admin' | 'erasure';
    };
  }
}

export {};

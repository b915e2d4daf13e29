// The queue area's domain events: each becomes an audit entry (resource = its subject). Playback
// positions and chat lines are not events: a player syncs its position every few seconds, and chat
// is conversation, not an action on the account (it is kept with the session and in the export).
type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'queue.updated': { fields: string[] };
    'queue.item_added': { track_id: string; play_next: boolean };
    'queue.item_removed': { track_id: string };
    'queue.cleared': { removed: number };
    'queue_session.created': { items: number };
    'queue_session.ended': Nothing;
    'queue_session.item_added': { track_id: string };
    'queue_session.item_removed': { track_id: string };
  }
}

export {};

// The tracks area's domain events: each becomes an audit entry (resource = its subject);
// the media pipeline, search and webhooks will handle them after commit.
type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'track.uploaded': { bytes: number; format: string };
    'track.upload_started': { total_size: number };
    'track.upload_cancelled': Nothing;
    'track.updated': { fields: string[]; batch?: true };
    'track.deleted': Nothing;
    'track.lyrics_updated': Nothing;
  }
}

export {};

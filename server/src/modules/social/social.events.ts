// Track social's domain events (track.liked and track.unliked are the favorites playlist's, in
// playlists.events.ts): each becomes an audit entry of the actor; webhooks will send
// track.reposted to the track's owner. Plays are not events: a listener's telemetry, counted in
// the plays tables, not an account's action.
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'track.reposted': { creator_id: string };
    'track.unreposted': Record<string, never>;
    'track.shared': { platform: string; secret_link: boolean };
    'track.share_revoked': Record<string, never>;
    'listening_history.cleared': { removed: number };
  }
}

export {};

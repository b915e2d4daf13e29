import type { PlaySource } from '@riff/contract';

// Track social's domain events (track.liked and track.unliked are the favorites playlist's, in
// playlists.events.ts): each becomes an audit entry of the actor; webhooks will send
// track.reposted to the track's owner. track.played is a measurement instead (a listener's
// telemetry, not an account's action): no audit entry, only the owner's analytics read it.
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    /**
     * A counted play (an uncounted one records none). `listener` is `u:<user id>` when signed in,
     * else `d:` and the day's keyed hash of address and user agent (the same listener all of one
     * UTC day, unlinkable across days); `country` is ISO 3166-1 alpha-2 from the address, ZZ when
     * unknown. Neither the address nor the user agent is in the event.
     */
    'track.played': {
      listener: string;
      source: PlaySource;
      playlist_id: string | null;
      duration_listened: number;
      country: string;
    };
    'track.reposted': { creator_id: string };
    'track.unreposted': Record<string, never>;
    'track.shared': { platform: string; secret_link: boolean };
    'track.share_revoked': Record<string, never>;
    'listening_history.cleared': { removed: number };
  }
}

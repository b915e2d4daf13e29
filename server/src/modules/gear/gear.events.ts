// The gear area's domain events: each becomes an audit entry (resource = its subject). Not webhook events.
import '../users/users.events.js';
import '../sanctions/sanctions.events.js';
import '../tracks/tracks.events.js';

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'gear.created': { category: string; is_public: boolean };
    /** Which fields changed; a photo added or removed names `photos`, a track's set names `tracks`. */
    'gear.updated': { fields: string[] };
    'gear.deleted': Record<string, never>;
  }
}

export {};

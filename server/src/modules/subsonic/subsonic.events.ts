// The subsonic area's domain events: each becomes an audit entry of the password's owner (resource app_password).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'app_password.created': { name: string };
    'app_password.revoked': { name: string };
  }
}

export {};

// The developer area's domain events: each becomes an audit entry of the key's owner (resource api_key).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'api_key.created': { name: string; prefix: string; scopes: string[]; expires_at: string | null };
    'api_key.revoked': { name: string; prefix: string };
  }
}

export {};

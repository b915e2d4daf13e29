declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'webhook.created': { url: string; events: string[] };
    'webhook.updated': { fields: string[] };
    'webhook.deleted': { url: string };
    'webhook.key_regenerated': { prefix: string };
    'webhook.secret_rotated': Record<string, never>;
    /** The service disabled it after too many failed deliveries in a row. */
    'webhook.disabled': { reason: string; consecutive_failures: number };
  }
}

export {};

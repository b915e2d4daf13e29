// The sanctions area's domain events, each about the sanctioned account (subject user, userId the
// account): an audit entry in that account's log, a notification and a webhook event to it.
interface SanctionFacts {
  sanction_id: string;
  reason: string;
}

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'user.warned': SanctionFacts;
    /** until: when it ends by itself (ISO), null for one only an admin lifts. */
    'user.suspended': SanctionFacts & { until: string | null };
    /** expired: it ran out by itself rather than being lifted by staff. */
    'user.unsuspended': { sanction_id: string; expired: boolean };
    'user.banned': SanctionFacts;
    'user.unbanned': { sanction_id: string };
  }
}

export {};

import type { AnnouncementAudience } from '@riff/contract';

// The admin area's domain events: each becomes an audit entry (resource = its subject).
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'admin.settings_updated': { fields: string[] };
    /** Staff signed an account out everywhere (the account's audit log shows it). */
    'admin.sessions_revoked': Record<string, never>;
    /** An admin's announcement to an audience; the notifications area delivers it. */
    'admin.announcement_sent': { message: string; audience: AnnouncementAudience };
  }
}

export {};

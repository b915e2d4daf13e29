import type { AnnouncementAudience } from '@riff/contract';
import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Mails each user the notifications they asked to get by mail, in one digest a day. */
    'notifications.digest': NoData;
    /** Delivers an announcement to the next batch of its audience (accounts by id after `after`), then queues the next batch. */
    'notifications.announce': { message: string; audience: AnnouncementAudience; after: string | null };
    /** Deletes notifications older than the retention period. */
    'notifications.prune': NoData;
  }
}

export {};

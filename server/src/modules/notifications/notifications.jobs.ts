import type { AnnouncementAudience } from '@riff/contract';
import type { NoData } from '../../platform/jobs/job-map.js';

/** One batch of an announcement: the accounts of its audience by id after `after` (null: from the first). */
export interface AnnouncementBatch {
  /** The announcement's id, which a batch is delivered once under. */
  announcement_id: string;
  message: string;
  audience: AnnouncementAudience;
  after: string | null;
}

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Mails each user the notifications they asked to get by mail, in one digest a day. */
    'notifications.digest': NoData;
    /** Delivers an announcement to the next batch of its audience (accounts by id after `after`), then queues the next batch. */
    'notifications.announce': AnnouncementBatch;
    /** Deletes notifications older than the retention period. */
    'notifications.prune': NoData;
  }
}

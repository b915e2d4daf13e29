import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Mails each user the notifications they asked to get by mail, in one digest a day. */
    'notifications.digest': NoData;
    /** Deletes notifications older than the retention period. */
    'notifications.prune': NoData;
  }
}

export {};

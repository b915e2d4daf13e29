import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Removes listening sessions that ended or went idle. */
    'queue.sessions.prune': NoData;
  }
}

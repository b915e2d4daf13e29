import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Purges the files of content removed long enough ago without an open appeal. */
    'appeals.purge-removed': NoData;
  }
}

export {};

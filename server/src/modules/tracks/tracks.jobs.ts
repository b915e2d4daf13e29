import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Removes what crashed or abandoned uploads left: expired chunked sessions and orphaned files. */
    'uploads.cleanup': NoData;
  }
}

import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Ends the suspensions whose time has come. */
    'sanctions.end-suspensions': NoData;
  }
}

export {};

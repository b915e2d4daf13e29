import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Upholds the claims whose owner filed no counter-notice in time. */
    'copyright.uphold-unanswered': NoData;
  }
}

export {};

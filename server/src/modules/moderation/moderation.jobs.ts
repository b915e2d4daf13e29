import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Folds a minute's case changes into the count rows the queue's total reads. */
    'moderation.fold-case-counts': NoData;
  }
}

export {};

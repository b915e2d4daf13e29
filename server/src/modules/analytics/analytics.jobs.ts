import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Applies the events waiting in the stream to the roll-ups, then begins the days up to today. */
    'analytics.rollup': NoData;
  }
}

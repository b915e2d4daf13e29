import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** Removes the stored objects of cloud uploads whose process died under them. */
    'cloud.cleanup': NoData;
    /** Deletes trash items older than 30 days with their stored objects. */
    'cloud.purge-trash': NoData;
  }
}
export {};

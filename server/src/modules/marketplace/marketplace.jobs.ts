import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** The sandbox provider's webhook call for one payment event, signed as a provider's would be. */
    'marketplace.sandbox-deliver': { eventId: string; body: string };
    /** Folds a minute's product changes into the count rows the list's total reads. */
    'marketplace.fold-product-counts': NoData;
    /** Expires the pending orders whose checkout ran out. */
    'marketplace.orders-expire': NoData;
    /** Removes idempotency records past their life. */
    'marketplace.idempotency-prune': NoData;
  }
}

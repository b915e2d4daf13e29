import type { NoData } from '../../platform/jobs/job-map.js';

declare module '../../platform/jobs/job-map.js' {
  interface JobMap {
    /** One attempt of a delivery (see DeliverJob). */
    'webhooks.deliver': DeliverJob;
    /** Queues again the pending deliveries whose job was lost. */
    'webhooks.resume-deliveries': NoData;
    /** Removes deliveries older than they are kept. */
    'webhooks.prune-deliveries': NoData;
  }
}

/**
 * A queued attempt: `attempt` is the delivery's count of attempts when it was queued, so a job
 * overtaken by a later attempt (a retry after a redelivery) finds the count moved on and stops.
 */
export interface DeliverJob {
  deliveryId: string;
  attempt?: number;
  redelivery?: boolean;
}

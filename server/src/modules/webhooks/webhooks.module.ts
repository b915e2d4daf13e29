import './webhooks.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { PeopleReader } from '../users/people-reader.js';
import { webhookDispatcher } from './webhook-dispatcher.js';
import type { WebhookSources } from './webhook-payloads.js';
import { WebhookDeliveries } from './webhook-deliveries.service.js';
import './webhooks.jobs.js';
import { webhookKeyVerifier } from './webhook-key-verifier.js';
import type { Resolve } from './webhook-url-guard.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { webhooksRoutes } from './webhooks.routes.js';
import { WebhooksService } from './webhooks.service.js';

const DAY_MS = 86_400_000;
const KEPT_DAYS = 30;

export type WebhooksModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { webhooks: WebhooksService };
};

/**
 * Outgoing webhooks: registration and management, delivery from the event bus through the job
 * queue, and `whk_` keys that read the API as the webhook's owner.
 */
export function createWebhooksModule(
  platform: Platform,
  sources: WebhookSources & {
    /** The users area's read port: the owner's account lock (creation) and contact (a disabled webhook's mail). */
    people: Pick<PeopleReader, 'lockAccount' | 'contact'>;
  },
  options: { resolve?: Resolve } = {},
): WebhooksModule {
  const { scope, config, clock, events, jobs, mail, logger, keys } = platform;
  const webhooks = new WebhooksRepository(scope);
  const box = keys.secretBox('webhook-secret');
  const deliveries = new WebhookDeliveries({
    scope,
    webhooks,
    box,
    jobs,
    events,
    mail,
    clock,
    logger,
    config: config.webhooks,
    appBaseUrl: config.appBaseUrl,
    people: sources.people,
    ownerMayAct: async (userId) => (await sources.activeUser(userId)) !== undefined,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  const service = new WebhooksService({
    scope,
    webhooks,
    deliveries,
    box,
    events,
    clock,
    rules: config.webhooks,
    people: sources.people,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  return {
    name: 'webhooks',
    services: { webhooks: service },
    routes: { webhooks: webhooksRoutes(service) },
    jobs: [
      // one attempt per job: the retries follow WEBHOOK_RETRY_SCHEDULE, not the queue's backoff
      {
        name: 'webhooks.deliver',
        retryLimit: 0,
        expireInSeconds: 120,
        handle: ({ deliveryId, attempt }) => deliveries.deliver(deliveryId, { retries: true, attempt }),
      },
      { name: 'webhooks.resume-deliveries', everyMs: 60_000, retryLimit: 0, handle: () => deliveries.resumeStalled() },
      {
        name: 'webhooks.prune-deliveries',
        everyMs: DAY_MS / 4,
        handle: () => webhooks.deleteDeliveriesBefore(new Date(clock.now().getTime() - KEPT_DAYS * DAY_MS)),
      },
    ],
    eventHandlers: [webhookDispatcher({ webhooks, deliveries, sources })],
    keyVerifiers: [webhookKeyVerifier({ webhooks, activeUser: sources.activeUser })],
    accountData: {
      export: (owner) => service.exportFor(owner),
      erase: async (owner) => ({ removed_webhooks: await webhooks.deleteByUser(owner.id) }),
    },
  };
}

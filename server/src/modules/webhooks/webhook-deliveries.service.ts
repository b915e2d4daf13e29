import { randomUUID } from 'node:crypto';
import { WEBHOOK_FAILURES_MAX, type WebhookEventType } from '@riff/contract';
import type { Logger } from 'pino';
import { systemActor } from '../../platform/access/actor.js';
import type { SecretBox } from '../../platform/auth/secret-box.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { JobQueue } from '../../platform/jobs/job-queue.js';
import type { MailQueue } from '../../platform/mail/mail-queue.js';
import { disabledMail } from './webhook-mail.js';
import { sendOnce, type AttemptResult } from './webhook-sender.js';
import { signedHeaders } from './webhook-signature.js';
import { checkWebhookUrl, type Resolve, type WebhookUrlRules } from './webhook-url-guard.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { DeliveryRow, WebhookRow, WebhooksRepository } from './webhooks.repository.js';
import './webhooks.jobs.js';

/** How long past the send's timeout an attempt's lease lasts (the guard's DNS lookup, the settling). */
const LEASE_MARGIN_MS = 30_000;
/** A pending delivery this long past its time, with no attempt under way, lost its job: it is queued again. */
const STALLED_AFTER_MS = 2 * 60_000;
const RESUMED_PER_RUN = 100;

export interface WebhookDeliveryConfig extends WebhookUrlRules {
  /** Seconds before each retry: its length is the number of retries. */
  retryScheduleSeconds: number[];
  timeoutMs: number;
}

export interface WebhookDeliveriesDeps {
  scope: DbScope;
  webhooks: WebhooksRepository;
  box: SecretBox;
  jobs: JobQueue;
  events: EventBus;
  mail: MailQueue;
  clock: Clock;
  logger: Logger;
  config: WebhookDeliveryConfig;
  appBaseUrl: string;
  /** The users area's read port: where a disabled webhook's owner is mailed. */
  people: Pick<PeopleReader, 'contact'>;
  /** The resolver the URL guard asks (tests give one that answers what they need). */
  resolve?: Resolve;
  /** Whether the webhook's owner may still act (not suspended, banned or gone): nothing is sent for one who may not. */
  ownerMayAct?(userId: string): Promise<boolean>;
}

/** The body of a message: what receivers parse and what the signature covers, byte for byte. */
export function messageBody(type: WebhookEventType, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * Messages to webhooks: queued as deliveries and jobs, sent one attempt at a time in the workers
 * (a slow receiver holds a worker, never a request), retried on the schedule with the same
 * webhook-id, and counted against the webhook: a success clears its run of failures, and the
 * failure that reaches WEBHOOK_FAILURES_MAX disables it, mails its owner and leaves an audit entry.
 */
export class WebhookDeliveries {
  constructor(private readonly deps: WebhookDeliveriesDeps) {}

  /** A new message to the webhook, in the caller's unit of work; nothing when this message exists already. */
  async queue(
    webhook: WebhookRow,
    type: WebhookEventType,
    messageId: string,
    body: string,
  ): Promise<DeliveryRow | undefined> {
    return this.deps.scope.transaction(async () => {
      const delivery = await this.deps.webhooks.insertDelivery({
        webhook_id: webhook.id,
        message_id: messageId,
        event_type: type,
        payload: body,
        next_attempt_at: this.deps.clock.now(),
      });
      if (delivery) await this.deps.jobs.enqueue('webhooks.deliver', { deliveryId: delivery.id, attempt: 0 });
      return delivery;
    });
  }

  /** A message sent here and now, one attempt, no retry (the test event): the delivery as it ended. */
  async sendNow(webhook: WebhookRow, type: WebhookEventType, messageId: string, body: string): Promise<DeliveryRow> {
    const delivery = await this.deps.webhooks.insertDelivery({
      webhook_id: webhook.id,
      message_id: messageId,
      event_type: type,
      payload: body,
      next_attempt_at: null,
    });
    return (await this.deliver(delivery!.id, { retries: false })) ?? delivery!;
  }

  /**
   * The periodic job: queues again the deliveries whose job was lost (a worker that died in the
   * middle of a send, a queue restored from a backup). A job that was only late finds the attempt
   * made, or under way, and stops.
   */
  async resumeStalled(): Promise<number> {
    const now = this.deps.clock.now();
    const stalled = await this.deps.webhooks.takeStalledDeliveries(
      new Date(now.getTime() - STALLED_AFTER_MS),
      now,
      RESUMED_PER_RUN,
    );
    for (const delivery of stalled)
      await this.deps.jobs.enqueue('webhooks.deliver', {
        deliveryId: delivery.id,
        attempt: delivery.attempts,
      });
    if (stalled.length > 0)
      this.deps.logger.warn({ deliveries: stalled.length }, 'webhook deliveries resumed after their job was lost');
    return stalled.length;
  }

  /** The message again (same webhook-id), queued now: a finished delivery becomes pending for one more attempt. */
  async redeliver(delivery: DeliveryRow): Promise<DeliveryRow> {
    return this.deps.scope.transaction(async () => {
      const updated = await this.deps.webhooks.updateDelivery(delivery.id, {
        status: 'pending',
        next_attempt_at: this.deps.clock.now(),
        error: null,
      });
      const current = updated ?? delivery;
      await this.deps.jobs.enqueue('webhooks.deliver', {
        deliveryId: delivery.id,
        attempt: current.attempts,
        redelivery: true,
      });
      return current;
    });
  }

  /**
   * The job: one attempt of a pending delivery, then its retry or its end. The attempt holds a lease
   * taken under the row's lock: a job for the same delivery meanwhile stops, as does one queued for
   * an attempt already made.
   */
  async deliver(
    deliveryId: string,
    options: { retries: boolean; attempt?: number | undefined } = { retries: true },
  ): Promise<DeliveryRow | undefined> {
    const { webhooks, clock, config } = this.deps;
    const claimed = await this.deps.scope.transaction(
      async (): Promise<{ settled: DeliveryRow | undefined } | { delivery: DeliveryRow; webhook: WebhookRow }> => {
        const found = await webhooks.lockDelivery(deliveryId);
        if (!found || found.delivery.status !== 'pending') return { settled: found?.delivery };
        const { delivery, webhook } = found;
        const now = clock.now();
        const overtaken = options.attempt !== undefined && delivery.attempts !== options.attempt;
        if (overtaken || (delivery.attempting_until !== null && delivery.attempting_until > now))
          return { settled: delivery };
        if (!webhook.is_active) {
          return {
            settled: await webhooks.updateDelivery(delivery.id, {
              status: 'failed',
              error: 'The webhook is not active',
              next_attempt_at: null,
            }),
          };
        }
        if (this.deps.ownerMayAct && !(await this.deps.ownerMayAct(webhook.user_id))) {
          return {
            settled: await webhooks.updateDelivery(delivery.id, {
              status: 'failed',
              error: 'The webhook’s owner cannot act now (suspended or banned)',
              next_attempt_at: null,
            }),
          };
        }
        await webhooks.updateDelivery(delivery.id, {
          attempting_until: new Date(now.getTime() + config.timeoutMs + LEASE_MARGIN_MS),
        });
        return { delivery, webhook };
      },
    );
    if (!('webhook' in claimed)) return claimed.settled;
    const result = await this.attempt(claimed.webhook, claimed.delivery);
    return this.settle(claimed.webhook, claimed.delivery, result, options.retries);
  }

  /** One send; a fault of ours on the way (a secret that no longer opens, say) is a failed attempt, never a delivery left under its lease. */
  private async attempt(webhook: WebhookRow, delivery: DeliveryRow): Promise<AttemptResult> {
    try {
      return await this.send(webhook, delivery);
    } catch (error) {
      if (error instanceof AppError)
        return { ok: false, status: null, excerpt: null, durationMs: 0, error: error.message };
      this.deps.logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery could not be attempted');
      return {
        ok: false,
        status: null,
        excerpt: null,
        durationMs: 0,
        error: 'The service could not send this message',
      };
    }
  }

  private async send(webhook: WebhookRow, delivery: DeliveryRow): Promise<AttemptResult> {
    const { config, box, clock } = this.deps;
    const target = await checkWebhookUrl(webhook.url, config, this.deps.resolve);
    const now = clock.now();
    const secrets = [box.open(webhook.secret_sealed)];
    if (
      webhook.previous_secret_sealed &&
      webhook.previous_secret_expires_at &&
      webhook.previous_secret_expires_at > now
    ) {
      secrets.push(box.open(webhook.previous_secret_sealed));
    }
    return sendOnce(
      target,
      delivery.payload,
      signedHeaders(secrets, delivery.message_id, now, delivery.payload),
      config.timeoutMs,
    );
  }

  private async settle(
    webhook: WebhookRow,
    delivery: DeliveryRow,
    result: AttemptResult,
    retries: boolean,
  ): Promise<DeliveryRow | undefined> {
    const { webhooks, clock, config } = this.deps;
    const now = clock.now();
    const attempts = delivery.attempts + 1;
    const delay = retries && !result.ok ? config.retryScheduleSeconds[attempts - 1] : undefined;
    return this.deps.scope.transaction(async () => {
      // a send that outlived its lease may have been overtaken by another attempt, which recorded its own result: this one is not counted again
      const current = await webhooks.lockDelivery(delivery.id);
      if (!current || current.delivery.status !== 'pending' || current.delivery.attempts !== delivery.attempts) {
        this.deps.logger.warn(
          { deliveryId: delivery.id },
          'webhook attempt outlived its lease: its result is not recorded',
        );
        return current?.delivery;
      }
      const counted = result.ok
        ? (await webhooks.recordSuccess(webhook.id, now), undefined)
        : await webhooks.recordFailure(
            webhook.id,
            now,
            WEBHOOK_FAILURES_MAX,
            `Disabled after ${WEBHOOK_FAILURES_MAX} failed deliveries in a row`,
          );
      const retry = delay !== undefined && !counted?.disabled;
      const updated = await webhooks.updateDelivery(delivery.id, {
        attempts,
        status: result.ok ? 'succeeded' : retry ? 'pending' : 'failed',
        response_status: result.status,
        response_excerpt: result.excerpt,
        duration_ms: result.durationMs,
        error: result.error,
        delivered_at: result.ok ? now : null,
        next_attempt_at: retry ? new Date(now.getTime() + delay * 1000) : null,
        attempting_until: null,
      });
      if (retry)
        await this.deps.jobs.enqueue(
          'webhooks.deliver',
          { deliveryId: delivery.id, attempt: attempts },
          delay > 0 ? { startAfterSeconds: delay } : {},
        );
      if (counted?.disabled) await this.disabled(webhook, counted.failures);
      return updated;
    });
  }

  private async disabled(webhook: WebhookRow, failures: number): Promise<void> {
    const reason = `Disabled after ${failures} failed deliveries in a row`;
    await this.deps.events.record(systemActor(), 'webhook.disabled', {
      subject: { resource: 'webhook', id: webhook.id },
      data: { reason, consecutive_failures: failures },
      userId: webhook.user_id,
    });
    const owner = await this.deps.people.contact(webhook.user_id);
    if (owner?.email)
      await this.deps.mail.send(disabledMail(owner.email, owner.username, webhook, reason, this.deps.appBaseUrl));
    this.deps.logger.warn({ webhookId: webhook.id, failures }, 'webhook disabled');
  }
}

/** A message id: unique per message, shared by all its attempts (webhook-id). */
export const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

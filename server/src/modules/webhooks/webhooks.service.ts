import {
  WEBHOOK_KEY_PREFIX,
  WEBHOOK_KEY_RANDOM_LENGTH,
  WEBHOOK_KEY_SHOWN_LENGTH,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOKS_PER_USER_MAX,
  type CreateWebhookRequest,
  type DeliveriesQuery,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookEventType,
} from '@riff/contract';
import type { Updateable } from 'kysely';
import type { UserActor } from '../../platform/access/actor.js';
import type { SecretBox } from '../../platform/auth/secret-box.js';
import { randomBase62, sha256Hex } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { WebhooksTable } from './webhooks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import { messageBody, newMessageId, type WebhookDeliveries } from './webhook-deliveries.service.js';
import { newSigningSecret } from './webhook-signature.js';
import { checkWebhookUrl, type Resolve, type WebhookUrlRules } from './webhook-url-guard.js';
import { toDeliveryDto, toWebhookDto } from './webhooks.mapper.js';
import { canUseWebhook } from './webhooks.policy.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { WebhookRow, WebhooksRepository } from './webhooks.repository.js';

export interface WebhooksServiceDeps {
  scope: DbScope;
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveries;
  box: SecretBox;
  events: EventBus;
  clock: Clock;
  rules: WebhookUrlRules;
  resolve?: Resolve;
  /** The users area's account lock (PeopleReader.lockAccount): a user's creations are counted one at a time. */
  people: Pick<PeopleReader, 'lockAccount'>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const KEPT_MS = 30 * DAY_MS;

/** ["*"] when the list holds it, else each type once, in the order given. */
const normalEvents = (events: readonly (WebhookEventType | '*')[]) =>
  events.includes('*') ? ['*' as const] : [...new Set(events)];

const newKey = () => {
  const key = WEBHOOK_KEY_PREFIX + randomBase62(WEBHOOK_KEY_RANDOM_LENGTH);
  return { key, hash: sha256Hex(key), prefix: key.slice(0, WEBHOOK_KEY_SHOWN_LENGTH) };
};

/** Registering and managing a user's webhooks, their log, tests and statistics. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksServiceDeps) {}

  private async owned(actor: UserActor, id: string): Promise<WebhookRow> {
    const webhook = await this.deps.webhooks.find(id);
    if (!webhook || !canUseWebhook(actor, webhook)) throw notFound('Webhook');
    return webhook;
  }

  private checkUrl(url: string) {
    return checkWebhookUrl(url, this.deps.rules, this.deps.resolve);
  }

  async list(actor: UserActor): Promise<{ webhooks: Webhook[] }> {
    return { webhooks: (await this.deps.webhooks.listByUser(actor.id)).map(toWebhookDto) };
  }

  async get(actor: UserActor, id: string): Promise<{ webhook: Webhook }> {
    return { webhook: toWebhookDto(await this.owned(actor, id)) };
  }

  async create(
    actor: UserActor,
    body: CreateWebhookRequest,
  ): Promise<{ webhook: Webhook; api_key: string; secret: string }> {
    const { scope, webhooks, box, events } = this.deps;
    const url = (await this.checkUrl(body.url)).url.href;
    const key = newKey();
    const secret = newSigningSecret();
    const row = await scope.transaction(async () => {
      // the owner's account row is held until commit, so two creations cannot both take the last place
      await this.deps.people.lockAccount(actor.id);
      if ((await webhooks.countOfUser(actor.id)) >= WEBHOOKS_PER_USER_MAX) {
        throw limitReached(`At most ${WEBHOOKS_PER_USER_MAX} webhooks per user: delete one first`);
      }
      const created = await webhooks.insert({
        user_id: actor.id,
        url,
        events: normalEvents(body.events),
        description: body.description || null,
        is_active: body.is_active ?? true,
        api_key_hash: key.hash,
        api_key_prefix: key.prefix,
        secret_sealed: box.seal(secret),
      });
      await events.record(actor, 'webhook.created', {
        subject: { resource: 'webhook', id: created.id },
        data: { url, events: created.events },
      });
      return created;
    });
    return { webhook: toWebhookDto(row), api_key: key.key, secret };
  }

  async update(actor: UserActor, id: string, body: UpdateWebhookRequest): Promise<{ webhook: Webhook }> {
    const { scope, webhooks, events } = this.deps;
    const current = await this.owned(actor, id);
    const changes: Updateable<WebhooksTable> = {};
    if (body.url !== undefined) changes.url = (await this.checkUrl(body.url)).url.href;
    if (body.events !== undefined) changes.events = normalEvents(body.events);
    if (body.description !== undefined) changes.description = body.description || null;
    if (body.is_active !== undefined) {
      changes.is_active = body.is_active;
      // re-activating starts a new run: the failures that disabled it are forgiven
      if (body.is_active && !current.is_active)
        Object.assign(changes, { consecutive_failures: 0, disabled_reason: null });
    }
    const row = await scope.transaction(async () => {
      const updated = await webhooks.update(id, changes);
      if (!updated) throw notFound('Webhook');
      await events.record(actor, 'webhook.updated', {
        subject: { resource: 'webhook', id },
        data: { fields: Object.keys(body).sort() },
      });
      return updated;
    });
    return { webhook: toWebhookDto(row) };
  }

  async remove(actor: UserActor, id: string): Promise<{ message: string }> {
    const webhook = await this.owned(actor, id);
    await this.deps.scope.transaction(async () => {
      await this.deps.webhooks.delete(id);
      await this.deps.events.record(actor, 'webhook.deleted', {
        subject: { resource: 'webhook', id },
        data: { url: webhook.url },
      });
    });
    return { message: 'Webhook deleted' };
  }

  async regenerateKey(actor: UserActor, id: string): Promise<{ api_key: string; message: string }> {
    await this.owned(actor, id);
    const key = newKey();
    await this.deps.scope.transaction(async () => {
      await this.deps.webhooks.update(id, { api_key_hash: key.hash, api_key_prefix: key.prefix });
      await this.deps.events.record(actor, 'webhook.key_regenerated', {
        subject: { resource: 'webhook', id },
        data: { prefix: key.prefix },
      });
    });
    return { api_key: key.key, message: 'The previous key no longer works' };
  }

  async rotateSecret(actor: UserActor, id: string): Promise<{ secret: string; message: string }> {
    const webhook = await this.owned(actor, id);
    const secret = newSigningSecret();
    const overlapUntil = new Date(this.deps.clock.now().getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * HOUR_MS);
    await this.deps.scope.transaction(async () => {
      await this.deps.webhooks.update(id, {
        secret_sealed: this.deps.box.seal(secret),
        previous_secret_sealed: webhook.secret_sealed,
        previous_secret_expires_at: overlapUntil,
      });
      await this.deps.events.record(actor, 'webhook.secret_rotated', {
        subject: { resource: 'webhook', id },
        data: {},
      });
    });
    return { secret, message: `Deliveries are signed with both secrets until ${overlapUntil.toISOString()}` };
  }

  async deliveries(actor: UserActor, id: string, query: DeliveriesQuery) {
    await this.owned(actor, id);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.webhooks.listDeliveries(
      id,
      { status: query.status, event: query.event },
      window,
    );
    return { deliveries: rows.map(toDeliveryDto), pagination: paginate(window, total) };
  }

  async redeliver(actor: UserActor, id: string, deliveryId: string) {
    await this.owned(actor, id);
    const delivery = await this.deps.webhooks.findDelivery(id, deliveryId);
    if (!delivery) throw notFound('Delivery');
    return { delivery: toDeliveryDto(await this.deps.deliveries.redeliver(delivery)) };
  }

  /** webhook.test now, one attempt, whatever the receiver answers. */
  async test(actor: UserActor, id: string) {
    const webhook = await this.owned(actor, id);
    if (!webhook.is_active) throw new AppError('WEBHOOK_INACTIVE', 'This webhook is not active: activate it first');
    const body = messageBody('webhook.test', this.deps.clock.now(), {
      webhook_id: webhook.id,
      message: 'A test event from Riff',
      actor: { id: actor.id, username: actor.user.username },
    });
    const delivery = await this.deps.deliveries.sendNow(webhook, 'webhook.test', newMessageId(), body);
    return {
      message:
        delivery.status === 'succeeded'
          ? 'The receiver accepted the test event'
          : 'The receiver did not accept the test event',
      delivery: toDeliveryDto(delivery),
    };
  }

  async stats(actor: UserActor) {
    const now = this.deps.clock.now().getTime();
    const { webhooks, deliveries, byEvent } = await this.deps.webhooks.stats(
      actor.id,
      new Date(now - KEPT_MS),
      new Date(now - DAY_MS),
    );
    const succeeded = Number(deliveries.succeeded);
    const failed = Number(deliveries.failed);
    return {
      stats: {
        webhooks_total: Number(webhooks.total),
        webhooks_active: Number(webhooks.active ?? 0),
        deliveries: { total: Number(deliveries.total), succeeded, failed, pending: Number(deliveries.pending) },
        success_rate: succeeded + failed === 0 ? 0 : Math.round((succeeded / (succeeded + failed)) * 10_000) / 10_000,
        avg_duration_ms: deliveries.avg_ms === null ? 0 : Math.round(Number(deliveries.avg_ms)),
        last_24h: { succeeded: Number(deliveries.day_succeeded), failed: Number(deliveries.day_failed) },
        by_event: Object.fromEntries(byEvent.map((row) => [row.event_type, Number(row.n)])),
      },
    };
  }

  async exportFor(owner: UserActor): Promise<{ webhooks: Webhook[] }> {
    return this.list(owner);
  }
}

import { createHash } from 'node:crypto';
import { userActor } from '../../platform/access/actor.js';
import type { DomainEvent, EventHandler } from '../../platform/events/event-bus.js';
import { messageBody, type WebhookDeliveries } from './webhook-deliveries.service.js';
import { webhookPayloads, type WebhookSources } from './webhook-payloads.js';
import { ROUTES, WEBHOOK_SOURCE_EVENTS, type Concerns } from './webhook-routes.js';
import type { WebhooksRepository } from './webhooks.repository.js';

/**
 * One message id per event and recipient (the same if the outbox hands the event over twice: the
 * delivery exists already then). The recipient is part of it because an area may record one event
 * per user concerned at the same instant (both parties of a copyright claim), and a receiver that
 * serves several accounts dedupes by this id.
 */
const messageIdOf = (event: DomainEvent, recipientId: string) =>
  `msg_${createHash('sha256')
    .update(
      `${event.type}|${event.subject.resource}|${event.subject.id}|${event.actorId}|${new Date(event.occurredAt).toISOString()}|${recipientId}`,
    )
    .digest('hex')
    .slice(0, 32)}`;

/**
 * Turns committed domain events into webhook messages (an after-commit handler of the event bus):
 * finds whom the event concerns (webhook-routes.ts), their active webhooks that asked for it, and
 * queues one message per webhook whose data is made for that user (webhook-payloads.ts).
 */
export function webhookDispatcher(deps: {
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveries;
  sources: WebhookSources;
}): EventHandler {
  const { webhooks, deliveries, sources } = deps;
  const render = webhookPayloads(sources);

  const recipientOf = async (event: DomainEvent, about: Concerns): Promise<string | undefined> => {
    const id = event.subject.id;
    if (!id) return undefined;
    switch (about) {
      case 'track':
        return webhooks.trackOwner(id);
      case 'comment':
        return webhooks.trackOwner(String((event.data as { track_id?: unknown }).track_id));
      case 'user':
      case 'account':
        return id;
      case 'playlist':
        // a deleted playlist is gone: its owner deleted it (only owners may)
        return (await webhooks.playlistOwner(id)) ?? event.userId ?? undefined;
      case 'order':
        return webhooks.orderBuyer(id);
      case 'product':
        return webhooks.productSeller(id);
      case 'group':
      case 'group_post':
        // the owner when it happened, as the groups area recorded it
        return String((event.data as { owner_id?: unknown }).owner_id);
      case 'content':
      case 'report':
      case 'claim':
      case 'strike':
      case 'appeal':
        // trust and safety record each event for the one user it concerns
        return event.userId ?? undefined;
    }
  };

  return {
    name: 'webhooks.dispatch',
    types: WEBHOOK_SOURCE_EVENTS,
    async handle(event) {
      const route = ROUTES[event.type];
      if (!route) return;
      const recipientId = await recipientOf(event, route.about);
      if (!recipientId) return;
      const subscribed = await webhooks.subscribed(recipientId, route.type);
      if (subscribed.length === 0) return;
      const recipient = await sources.activeUser(recipientId);
      if (!recipient) return;
      const body = messageBody(
        route.type,
        new Date(event.occurredAt),
        await render(event, route.about, userActor(recipient, 'bearer')),
      );
      const messageId = messageIdOf(event, recipientId);
      for (const webhook of subscribed) await deliveries.queue(webhook, route.type, messageId, body);
    },
  };
}

import { createHash } from 'node:crypto';
import type { Comment, Order, Playlist, Product, Profile, Track, WebhookEventType } from '@riff/contract';
import { userActor, type UserActor } from '../../platform/access/actor.js';
import type { UserRow } from '../users/users.tables.js';
import type { DomainEvent, EventHandler } from '../../platform/events/event-bus.js';
import type { EventType } from '../../platform/events/event-map.js';
import { messageBody, type WebhookDeliveries } from './webhook-deliveries.service.js';
import type { WebhooksRepository } from './webhooks.repository.js';
import '../sanctions/sanctions.events.js';

/** What the dispatcher reads of other areas to show a resource as the recipient would read it from the API. */
export interface WebhookSources {
  activeUser(id: string): Promise<UserRow | undefined>;
  tracks(actor: UserActor, ids: readonly string[]): Promise<Map<string, Track>>;
  profiles(ids: readonly string[]): Promise<Map<string, Profile>>;
  playlist(actor: UserActor, id: string): Promise<Playlist | undefined>;
  comment(actor: UserActor, id: string): Promise<Comment | undefined>;
  order(actor: UserActor, id: string): Promise<Order | undefined>;
  product(actor: UserActor, id: string): Promise<Product | undefined>;
}

type Concerns = 'track' | 'comment' | 'user' | 'playlist' | 'order' | 'product' | 'account';

/** Each domain event that has a webhook event: its name there, and what it is about (which says whom it goes to). */
const ROUTES: Partial<Record<EventType, { type: WebhookEventType; about: Concerns }>> = {
  'track.uploaded': { type: 'track.created', about: 'track' },
  'track.updated': { type: 'track.updated', about: 'track' },
  'track.deleted': { type: 'track.deleted', about: 'track' },
  'track.processed': { type: 'track.processed', about: 'track' },
  'track.liked': { type: 'track.liked', about: 'track' },
  'track.reposted': { type: 'track.reposted', about: 'track' },
  'comment.created': { type: 'comment.created', about: 'comment' },
  'user.followed': { type: 'user.followed', about: 'user' },
  'playlist.created': { type: 'playlist.created', about: 'playlist' },
  'playlist.updated': { type: 'playlist.updated', about: 'playlist' },
  'playlist.deleted': { type: 'playlist.deleted', about: 'playlist' },
  'playlist.track_added': { type: 'playlist.track_added', about: 'playlist' },
  'playlist.track_removed': { type: 'playlist.track_removed', about: 'playlist' },
  'order.created': { type: 'order.created', about: 'order' },
  'order.completed': { type: 'order.completed', about: 'order' },
  'order.refunded': { type: 'order.refunded', about: 'order' },
  'product.sold': { type: 'product.sold', about: 'product' },
  // a suspension and a ban reach nobody: the account's webhooks stop with it
  'user.warned': { type: 'user.warned', about: 'account' },
  'user.suspended': { type: 'user.suspended', about: 'account' },
  'user.unsuspended': { type: 'user.unsuspended', about: 'account' },
  'user.banned': { type: 'user.banned', about: 'account' },
  'user.unbanned': { type: 'user.unbanned', about: 'account' },
};

export const WEBHOOK_SOURCE_EVENTS = Object.keys(ROUTES) as EventType[];

/** One message id per event (the same if the outbox hands the event over twice: the delivery exists already then). */
const messageIdOf = (event: DomainEvent) =>
  `msg_${createHash('sha256')
    .update(
      `${event.type}|${event.subject.resource}|${event.subject.id}|${event.actorId}|${new Date(event.occurredAt).toISOString()}`,
    )
    .digest('hex')
    .slice(0, 32)}`;

/**
 * Turns committed domain events into webhook messages (an after-commit handler of the event bus):
 * finds whom the event concerns (the track's owner for track.* and comment.created, the followed
 * user, the playlist's owner, the buyer, the seller), their active webhooks that asked for it, and
 * queues one message per webhook whose data is the resource as that user reads it from the API (or
 * its id, when it is gone or hidden since), the event's own details, and the actor.
 */
export function webhookDispatcher(deps: {
  webhooks: WebhooksRepository;
  deliveries: WebhookDeliveries;
  sources: WebhookSources;
}): EventHandler {
  const { webhooks, deliveries, sources } = deps;
  const data = (event: DomainEvent) => event.data as Record<string, unknown>;

  const recipientOf = async (event: DomainEvent, about: Concerns): Promise<string | undefined> => {
    const id = event.subject.id;
    if (!id) return undefined;
    switch (about) {
      case 'track':
        return webhooks.trackOwner(id);
      case 'comment':
        return webhooks.trackOwner(String(data(event).track_id));
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
    }
  };

  const render = async (event: DomainEvent, about: Concerns, reader: UserActor): Promise<Record<string, unknown>> => {
    const id = event.subject.id!;
    const actor = event.actorId ? (await sources.profiles([event.actorId])).get(event.actorId) : undefined;
    const base = { actor: actor ? { id: actor.id, username: actor.username } : null };
    switch (about) {
      case 'track':
        return { ...base, ...data(event), track: (await sources.tracks(reader, [id])).get(id) ?? { id } };
      case 'comment': {
        const trackId = String(data(event).track_id);
        return {
          ...base,
          comment: (await sources.comment(reader, id)) ?? { id, ...data(event) },
          track: (await sources.tracks(reader, [trackId])).get(trackId) ?? { id: trackId },
        };
      }
      case 'user':
        return { ...base, follower: actor ?? null };
      case 'account':
        // the sanction as the account is told it (staff are not named)
        return { actor: null, ...data(event) };
      case 'playlist':
        return { ...base, ...data(event), playlist: (await sources.playlist(reader, id)) ?? { id } };
      case 'order':
        return { ...base, ...data(event), order: (await sources.order(reader, id)) ?? { id } };
      case 'product':
        return { ...base, ...data(event), product: (await sources.product(reader, id)) ?? { id } };
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
      const messageId = messageIdOf(event);
      for (const webhook of subscribed) await deliveries.queue(webhook, route.type, messageId, body);
    },
  };
}

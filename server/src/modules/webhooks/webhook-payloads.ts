import type {
  Appeal,
  Comment,
  CopyrightClaim,
  Group,
  GroupPost,
  Order,
  Playlist,
  Product,
  Profile,
  Report,
  Strike,
  Track,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { DomainEvent } from '../../platform/events/event-bus.js';
import type { EventMap } from '../../platform/events/event-map.js';
import type { UserRow } from '../users/users.tables.js';
import type { Concerns, TrustConcerns } from './webhook-routes.js';

/** What the dispatcher reads of other areas to show a resource as the recipient would read it from the API. */
export interface WebhookSources {
  activeUser(id: string): Promise<UserRow | undefined>;
  tracks(actor: UserActor, ids: readonly string[]): Promise<Map<string, Track>>;
  profiles(ids: readonly string[]): Promise<Map<string, Profile>>;
  playlist(actor: UserActor, id: string): Promise<Playlist | undefined>;
  comment(actor: UserActor, id: string): Promise<Comment | undefined>;
  order(actor: UserActor, id: string): Promise<Order | undefined>;
  product(actor: UserActor, id: string): Promise<Product | undefined>;
  /** A group as its owner reads it (GET /groups/{id}). */
  group(actor: UserActor, id: string): Promise<Group | undefined>;
  /** A group's post as the group's owner reads it (GET /groups/{id}/posts/{post_id}). */
  groupPost(actor: UserActor, id: string): Promise<GroupPost | undefined>;
  /** The reader's report as GET /reports/mine shows it. */
  report(actor: UserActor, id: string): Promise<Report | undefined>;
  /** A claim as either of its parties reads it (GET /copyright/claims/mine: never the claimant's email). */
  claim(actor: UserActor, id: string): Promise<CopyrightClaim | undefined>;
  /** The reader's strike as their standing shows it. */
  strike(actor: UserActor, id: string): Promise<Strike | undefined>;
  /** The reader's appeal as GET /appeals/mine shows it (never who decided). */
  appeal(actor: UserActor, id: string): Promise<Appeal | undefined>;
}

type Data = Record<string, unknown>;

/**
 * A webhook message's data: the resource as the recipient (`reader`) reads it from the API (or its
 * id, when it is gone or hidden since), the event's own details, and the actor. Trust and safety's
 * messages never name staff: their actor is the recipient when they acted themselves (a claim they
 * filed, their counter-notice, their appeal), else null.
 */
export function webhookPayloads(sources: WebhookSources) {
  const data = (event: DomainEvent) => event.data as Data;
  const profileOf = async (id: string | null) => {
    const actor = id ? (await sources.profiles([id])).get(id) : undefined;
    return actor ? { id: actor.id, username: actor.username } : null;
  };

  async function trustAndSafety(event: DomainEvent, about: TrustConcerns, reader: UserActor): Promise<Data> {
    const id = event.subject.id!;
    const actor = event.actorId === reader.id ? await profileOf(event.actorId) : null;
    switch (about) {
      case 'content': {
        const facts = event.data as EventMap['content.moderated'];
        return {
          actor,
          // the item as the owner's standing (GET /users/me/standing) shows it
          content: {
            target_type: facts.target_type,
            target_id: id,
            moderation_status: facts.status,
            moderation_reason: facts.reason,
          },
          previous_status: facts.previous,
          title: facts.title,
        };
      }
      case 'report': {
        const facts = event.data as EventMap['report.closed'];
        const report = (await sources.report(reader, id)) ?? { id, ...facts };
        return { actor, report };
      }
      case 'claim':
        return { actor, ...data(event), claim: (await sources.claim(reader, id)) ?? { id } };
      case 'strike': {
        // strike.added counts the account's active strikes with this one: what limits uploads
        const { active, strike_id: _id, ...facts } = event.data as Partial<EventMap['strike.added']>;
        const strike = (await sources.strike(reader, id)) ?? { id, ...facts };
        return { actor, strike, ...(active === undefined ? {} : { active_strikes: active }) };
      }
      case 'appeal':
        return { actor, appeal: (await sources.appeal(reader, id)) ?? { id, ...data(event) } };
    }
  }

  return async function render(event: DomainEvent, about: Concerns, reader: UserActor): Promise<Data> {
    const id = event.subject.id!;
    switch (about) {
      case 'track':
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          track: (await sources.tracks(reader, [id])).get(id) ?? { id },
        };
      case 'comment': {
        const trackId = String(data(event).track_id);
        return {
          actor: await profileOf(event.actorId),
          comment: (await sources.comment(reader, id)) ?? { id, ...data(event) },
          track: (await sources.tracks(reader, [trackId])).get(trackId) ?? { id: trackId },
        };
      }
      case 'user': {
        const follower = event.actorId ? (await sources.profiles([event.actorId])).get(event.actorId) : undefined;
        return {
          actor: follower ? { id: follower.id, username: follower.username } : null,
          follower: follower ?? null,
        };
      }
      case 'account':
        // the sanction as the account is told it (staff are not named)
        return { actor: null, ...data(event) };
      case 'playlist':
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          playlist: (await sources.playlist(reader, id)) ?? { id },
        };
      case 'order':
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          order: (await sources.order(reader, id)) ?? { id },
        };
      case 'product':
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          product: (await sources.product(reader, id)) ?? { id },
        };
      case 'group':
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          group: (await sources.group(reader, id)) ?? { id },
        };
      case 'group_post': {
        const groupId = String((event.data as { group_id?: unknown }).group_id);
        return {
          actor: await profileOf(event.actorId),
          ...data(event),
          post: (await sources.groupPost(reader, id)) ?? { id },
          group: (await sources.group(reader, groupId)) ?? { id: groupId },
        };
      }
      default:
        return trustAndSafety(event, about, reader);
    }
  };
}

import type { RequestOrigin } from '../access/actor.js';
import type { Selectable } from 'kysely';
import type { EventColumns } from '../db/database.schema.js';
import type { EventMap, EventType } from './event-map.js';

/** What an event is about: the resource it changed. */
export interface EventSubject {
  resource: string;
  id: string | null;
}

export interface DomainEvent<K extends EventType = EventType> {
  type: K;
  data: EventMap[K];
  subject: EventSubject;
  /** Whose account the event belongs to (the actor, unless said otherwise: e.g. a failed login). */
  userId: string | null;
  actorId: string | null;
  origin: RequestOrigin;
  occurredAt: Date;
}

/** The event as recorded: what `record` takes besides the actor and the type. */
export interface EventInput<K extends EventType> {
  subject: EventSubject;
  data: EventMap[K];
  userId?: string | null;
  /** When it happened, if the change stamped its own time already (the service clock's now otherwise). */
  occurredAt?: Date;
}

/** The columns an event is stored with (in the outbox, in the stream). */
export function eventColumns(event: DomainEvent): Omit<EventColumns, 'payload'> & { payload: string } {
  return {
    type: event.type,
    payload: JSON.stringify(event.data),
    subject_type: event.subject.resource,
    subject_id: event.subject.id,
    user_id: event.userId,
    actor_id: event.actorId,
  };
}

/**
 * An event read back from its columns. The address and user agent are not kept with stored events:
 * handlers after the change do not need them.
 */
export function eventFromColumns<K extends EventType>(
  row: Selectable<EventColumns>,
  requestId: string | null,
  occurredAt: Date,
): DomainEvent<K> {
  return {
    type: row.type as K,
    data: row.payload as never,
    subject: { resource: row.subject_type, id: row.subject_id },
    userId: row.user_id,
    actorId: row.actor_id,
    origin: { ip: null, userAgent: null, requestId },
    occurredAt,
  };
}

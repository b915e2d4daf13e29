import type { RequestOrigin } from '../access/actor.js';
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

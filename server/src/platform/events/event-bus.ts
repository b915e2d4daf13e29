import type { Kysely } from 'kysely';
import type { Database } from '../db/database.schema.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { EventMap, EventType } from './event-map.js';
import type { EventsRepository, StoredEvent } from './events.repository.js';

export type DomainEvent<K extends EventType = EventType> = Omit<StoredEvent, 'type' | 'payload'> & { type: K; payload: EventMap[K] };

/** Reacts to one type of committed event. Runs as a job: at least once, retried on failure, so it must be idempotent. */
export interface EventHandler<K extends EventType = EventType> {
  /** Unique among handlers; names the handler's job (`event.<name>`). */
  name: string;
  type: K;
  handle(event: DomainEvent<K>): Promise<void>;
}

export interface EventBus {
  /** Before the job queue starts. */
  subscribe<K extends EventType>(handler: EventHandler<K>): void;
  /**
   * Records an event in the transaction of the change that caused it, with one job per handler
   * of its type: if the transaction rolls back, neither the event nor its jobs exist.
   */
  record<K extends EventType>(
    transaction: Kysely<Database>,
    type: K,
    payload: EventMap[K],
    meta?: { actorId?: string | null; requestId?: string | null },
  ): Promise<string>;
}

export function createEventBus(jobs: JobQueue, events: EventsRepository): EventBus {
  const handlers = new Map<string, EventHandler[]>();
  return {
    subscribe(handler) {
      const jobName = `event.${handler.name}`;
      jobs.define<{ eventId: string }>({
        name: jobName,
        handle: async ({ eventId }) => {
          const event = await events.find(eventId);
          // the event row is written with its job in one transaction, so it exists unless removed on purpose
          if (event) await handler.handle(event as DomainEvent<typeof handler.type>);
        },
      });
      handlers.set(handler.type, [...(handlers.get(handler.type) ?? []), handler as unknown as EventHandler]);
    },

    async record(transaction, type, payload, meta = {}) {
      const eventId = await events.insert({ type, payload, actorId: meta.actorId ?? null, requestId: meta.requestId ?? null }, transaction);
      for (const handler of handlers.get(type) ?? []) await jobs.enqueue(`event.${handler.name}`, { eventId }, { transaction });
      return eventId;
    },
  };
}

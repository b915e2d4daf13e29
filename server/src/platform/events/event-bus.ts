import type { Actor } from '../access/actor.js';
import type { Clock } from '../clock.js';
import type { DbScope } from '../db/transactions.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { DomainEvent, EventInput } from './domain-event.js';
import type { EventType } from './event-map.js';
import type { EventsRepository } from './events.repository.js';
import type { BatchedEventHandler, EventStream } from './event-stream.js';

export type { DomainEvent, EventInput, EventSubject } from './domain-event.js';

/**
 * Reacts to committed events (the default): runs as a job from the outbox, at least once and
 * retried on failure, so it must be idempotent. Webhooks and search indexing are such handlers.
 *
 * `in-transaction` handlers instead run inside the unit of work that records the event: their
 * writes commit or roll back with the change, and a failure fails the change. They are for
 * records that are part of the same fact and must be readable as soon as it is acknowledged:
 * the audit log.
 */
export interface EventHandler<K extends EventType = EventType> {
  /** Unique among handlers; names the handler's job (`event.<name>`). */
  name: string;
  /** The types it handles, or '*' for every type. */
  types: readonly K[] | '*';
  /**
   * With '*': types it does not handle after all (e.g. the audit log leaves out plays and
   * downloads, which are a listener's measurements, not an account's actions).
   */
  except?: readonly EventType[];
  delivery?: 'after-commit' | 'in-transaction';
  handle(event: DomainEvent<K>): Promise<void>;
}

/** Any handler a module declares: one event at a time (in the transaction or after it), or in batches. */
export type AnyEventHandler<K extends EventType = EventType> = EventHandler<K> | BatchedEventHandler<K>;

export interface EventBus {
  /** Before the job queue starts. */
  subscribe<K extends EventType>(handler: AnyEventHandler<K>): void;
  /**
   * Applies up to `limit` events waiting for the batched handler `name`; returns how many (fewer
   * than `limit` once its stream is empty). Its module's job calls it.
   */
  drain(name: string, limit: number): Promise<number>;
  /**
   * Records an event in the current unit of work (one is opened if none is): in-transaction
   * handlers run now; for each after-commit handler the event is stored in the outbox with
   * a job, both of which exist only if the unit of work commits.
   */
  record<K extends EventType>(actor: Actor, type: K, input: EventInput<K>): Promise<void>;
}

declare module '../jobs/job-map.js' {
  interface JobMap {
    /** One after-commit handler's delivery of one event of the outbox (the job is named for the handler). */
    [handlerJob: `event.${string}`]: { eventId: string };
  }
}

/** The clock stamps each event (occurredAt), so tests that move the service's clock move its events too. */
export function createEventBus(
  scope: DbScope,
  jobs: JobQueue,
  events: EventsRepository,
  stream: EventStream,
  clock: Clock,
): EventBus {
  const inTransaction: EventHandler[] = [];
  const afterCommit: EventHandler[] = [];
  const batched = new Map<string, BatchedEventHandler>();
  const handles = (handler: EventHandler | BatchedEventHandler, type: EventType) =>
    handler.types === '*' ? !('except' in handler && handler.except?.includes(type)) : handler.types.includes(type);

  return {
    subscribe(handler) {
      if (handler.delivery === 'batched') {
        batched.set(handler.name, handler as unknown as BatchedEventHandler);
        return;
      }
      const generic = handler as unknown as EventHandler;
      if (handler.delivery === 'in-transaction') {
        inTransaction.push(generic);
        return;
      }
      jobs.define({
        name: `event.${handler.name}`,
        handle: async ({ eventId }) => {
          const event = await events.find(eventId);
          // the event row is written with its job in one transaction, so it exists unless removed on purpose
          if (event) await generic.handle(event);
        },
      });
      afterCommit.push(generic);
    },

    async record(actor, type, input) {
      const event: DomainEvent = {
        type,
        data: input.data,
        subject: input.subject,
        userId: input.userId !== undefined ? input.userId : actor.id,
        actorId: actor.id,
        origin: actor.origin,
        occurredAt: input.occurredAt ?? clock.now(),
      };
      const later = afterCommit.filter((handler) => handles(handler, type));
      const consumers = [...batched.values()].filter((handler) => handles(handler, type));
      await scope.transaction(async () => {
        for (const handler of inTransaction) if (handles(handler, type)) await handler.handle(event);
        for (const consumer of consumers) await stream.append(consumer.name, event);
        if (later.length === 0) return;
        const eventId = await events.insert(event);
        for (const handler of later) await jobs.enqueue(`event.${handler.name}`, { eventId });
      });
    },

    drain(name, limit) {
      const handler = batched.get(name);
      if (!handler) throw new Error(`no batched event handler ${name}`);
      return stream.drain(handler, limit);
    },
  };
}

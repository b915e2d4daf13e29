import { sql } from 'kysely';
import type { DbScope } from '../db/transactions.js';
import { type DomainEvent, eventColumns, eventFromColumns } from './domain-event.js';
import type { EventType } from './event-map.js';

/**
 * A consumer of events in batches, for facts too many for a job each (every counted play): the
 * events wait in the stream, written with the change that caused them, and `drain` hands them to
 * the consumer a batch at a time, in the order they were recorded, inside the transaction that
 * deletes them. So each committed event is applied exactly once and a failed batch stays for the
 * next drain. Batches of one consumer never run at once (an advisory lock per consumer, across
 * instances), so a consumer may keep running state without races of its own.
 */
export interface BatchedEventHandler<K extends EventType = EventType> {
  /** Unique among consumers; the stream's rows carry it. */
  name: string;
  types: readonly K[];
  delivery: 'batched';
  handleBatch(events: readonly DomainEvent<K>[]): Promise<void>;
}

/**
 * Holds the consumer's lock until the current transaction ends: a consumer's batches, and any other
 * work of the consumer that must not interleave with them, run one at a time across instances.
 */
export async function lockConsumer(scope: DbScope, name: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`event-stream:${name}`}))`.execute(scope.db);
}

/** The stream's SQL: rows in with the change, out with the batch that applies them. */
export class EventStream {
  constructor(private readonly scope: DbScope) {}

  async append(consumer: string, event: DomainEvent): Promise<void> {
    await this.scope.db
      .insertInto('event_stream')
      .values({
        consumer,
        ...eventColumns(event),
        occurred_at: event.occurredAt,
      })
      .execute();
  }

  /**
   * Takes up to `limit` of the consumer's oldest events and applies them in one transaction.
   * Returns how many were applied (fewer than `limit`: the stream was empty behind them).
   */
  drain<K extends EventType>(handler: BatchedEventHandler<K>, limit: number): Promise<number> {
    return this.scope.transaction(async () => {
      await lockConsumer(this.scope, handler.name);
      const rows = await this.scope.db
        .deleteFrom('event_stream')
        .where('seq', 'in', (eb) =>
          eb.selectFrom('event_stream').select('seq').where('consumer', '=', handler.name).orderBy('seq').limit(limit),
        )
        .returningAll()
        .execute();
      if (rows.length === 0) return 0;
      rows.sort((a, b) => a.seq - b.seq);
      await handler.handleBatch(rows.map((row) => eventFromColumns<K>(row, null, row.occurred_at)));
      return rows.length;
    });
  }

  /** Events waiting for the consumer. */
  async waiting(consumer: string): Promise<number> {
    const row = await this.scope.db
      .selectFrom('event_stream')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('consumer', '=', consumer)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

import type { Generated } from 'kysely';
import type { Json } from './column-types.js';

/** A recorded event's own columns, as the outbox and the event stream both keep them. */
export interface EventColumns {
  type: string;
  payload: Json<Record<string, unknown>>;
  subject_type: string;
  subject_id: string | null;
  user_id: string | null;
  actor_id: string | null;
}

export interface DomainEventsTable extends EventColumns {
  id: Generated<string>;
  request_id: string | null;
  created_at: Generated<Date>;
}

/** An event waiting for one batched consumer (platform/events/event-stream.ts). */
export interface EventStreamTable extends EventColumns {
  seq: Generated<number>;
  consumer: string;
  occurred_at: Date;
}

/**
 * The whole database as Kysely sees it. The platform declares its own table here (the domain-event
 * outbox); each area adds the tables it owns by augmenting
 * this interface from its module folder, in <area>.tables.ts:
 *
 *   declare module '../../platform/db/database.schema.js' {
 *     interface Database { tracks: TracksTable }
 *   }
 *
 * An area's SQL touches only the tables it declares (tests/platform/table-ownership.test.ts).
 * Enum columns take their values from the contract's tuples (the migrations' CHECK constraints
 * list the same values, tested).
 */
export interface Database {
  domain_events: DomainEventsTable;
  event_stream: EventStreamTable;
}

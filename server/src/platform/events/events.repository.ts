import type { Db } from '../db/database.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.schema.js';

export interface StoredEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  actorId: string | null;
  requestId: string | null;
  occurredAt: Date;
}

export class EventsRepository {
  constructor(private readonly db: Db) {}

  async insert(
    event: { type: string; payload: object; actorId: string | null; requestId: string | null },
    transaction: Kysely<Database>,
  ): Promise<string> {
    const row = await transaction
      .insertInto('domain_events')
      .values({ type: event.type, payload: JSON.stringify(event.payload), actor_id: event.actorId, request_id: event.requestId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async find(id: string): Promise<StoredEvent | undefined> {
    const row = await this.db.selectFrom('domain_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row && {
      id: row.id,
      type: row.type,
      payload: row.payload,
      actorId: row.actor_id,
      requestId: row.request_id,
      occurredAt: row.created_at,
    };
  }
}

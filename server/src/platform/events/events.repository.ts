import type { DbScope } from '../db/transactions.js';
import { type DomainEvent, eventColumns, eventFromColumns } from './domain-event.js';

/** The outbox: events waiting for (or kept after) their after-commit handlers. */
export class EventsRepository {
  constructor(private readonly scope: DbScope) {}

  async insert(event: DomainEvent): Promise<string> {
    const row = await this.scope.db
      .insertInto('domain_events')
      .values({
        ...eventColumns(event),
        request_id: event.origin.requestId,
        // the event's own time (the service's clock), not the insert's
        created_at: event.occurredAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async find(id: string): Promise<DomainEvent | undefined> {
    const row = await this.scope.db.selectFrom('domain_events').selectAll().where('id', '=', id).executeTakeFirst();
    return row && eventFromColumns(row, row.request_id, row.created_at);
  }

  /** Removes events older than `before` (their handlers ran long ago). */
  async prune(before: Date): Promise<number> {
    const result = await this.scope.db.deleteFrom('domain_events').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

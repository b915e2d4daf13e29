import type { DbScope } from '../db/transactions.js';
import type { EventType } from './event-map.js';
import type { DomainEvent } from './domain-event.js';

/** The outbox: events waiting for (or kept after) their after-commit handlers. */
export class EventsRepository {
  constructor(private readonly scope: DbScope) {}

  async insert(event: DomainEvent): Promise<string> {
    const row = await this.scope.db
      .insertInto('domain_events')
      .values({
        type: event.type,
        payload: JSON.stringify(event.data),
        subject_type: event.subject.resource,
        subject_id: event.subject.id,
        user_id: event.userId,
        actor_id: event.actorId,
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
    return (
      row && {
        type: row.type as EventType,
        data: row.payload as never,
        subject: { resource: row.subject_type, id: row.subject_id },
        userId: row.user_id,
        actorId: row.actor_id,
        // the address and user agent are not kept in the outbox: handlers after commit do not need them
        origin: { ip: null, userAgent: null, requestId: row.request_id },
        occurredAt: row.created_at,
      }
    );
  }

  /** Removes events older than `before` (their handlers ran long ago). */
  async prune(before: Date): Promise<number> {
    const result = await this.scope.db.deleteFrom('domain_events').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

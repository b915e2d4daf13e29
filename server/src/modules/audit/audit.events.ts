import type { EventHandler } from '../../platform/events/event-bus.js';
import type { EventType } from '../../platform/events/event-map.js';
import type { AuditRepository } from './audit.repository.js';

/**
 * Every domain event becomes an audit entry: action = the event type, resource and id = its
 * subject, metadata = its data. In the transaction of the change, so an acknowledged change
 * is already in its owner's log (and a rolled-back one never is).
 */
export function auditTrail(audit: AuditRepository): EventHandler<EventType> {
  return {
    name: 'audit.trail',
    types: '*',
    delivery: 'in-transaction',
    handle: (event) =>
      audit.record(
        {
          userId: event.userId,
          action: event.type,
          resource: event.subject.resource,
          resourceId: event.subject.id,
          metadata: event.data as Record<string, unknown>,
        },
        event.origin,
      ),
  };
}

import type { EventHandler } from '../../platform/events/event-bus.js';
import type { EventType } from '../../platform/events/event-map.js';
import type { AuditRepository } from './audit.repository.js';

/**
 * Measurements, not actions on an account: a play or a download is a listener's telemetry (for
 * the owner's analytics), recorded by the thousand, and no one's log should fill with them.
 */
const NOT_AUDITED: readonly EventType[] = ['track.played', 'track.downloaded'];

/**
 * Every domain event but the measurements becomes an audit entry: action = the event type,
 * resource and id = its subject, metadata = its data. In the transaction of the change, so an
 * acknowledged change is already in its owner's log (and a rolled-back one never is).
 */
export function auditTrail(audit: AuditRepository): EventHandler<EventType> {
  return {
    name: 'audit.trail',
    types: '*',
    except: NOT_AUDITED,
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

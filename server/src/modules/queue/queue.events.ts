// The queue area's domain events: each becomes an audit entry (resource = its subject). Playback
// positions and chat lines are not events: a player syncs its position every few seconds, and chat
// is conversation, not an action on the account (it is kept with the session and in the export).
import '../users/users.events.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { SessionsRepository } from './sessions.repository.js';

type Nothing = Record<string, never>;

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'queue.updated': { fields: string[] };
    'queue.item_added': { track_id: string; play_next: boolean };
    'queue.item_removed': { track_id: string };
    'queue.cleared': { removed: number };
    'queue_session.created': { items: number };
    'queue_session.ended': Nothing;
    'queue_session.item_added': { track_id: string };
    'queue_session.item_removed': { track_id: string };
  }
}

/**
 * A block ends shared listening between the two users: the blocked user leaves the blocker's
 * sessions and the blocker the blocked user's, in the block's own transaction. Joining again is
 * refused while the block lasts (SessionsService).
 */
export function leaveSessionsOnBlock(sessions: SessionsRepository): EventHandler<'user.blocked'> {
  return {
    name: 'queue.leave-sessions-on-block',
    types: ['user.blocked'],
    delivery: 'in-transaction',
    handle: async (event) => {
      if (event.actorId && event.subject.id) await sessions.leaveBetween(event.actorId, event.subject.id);
    },
  };
}

// The groups area's domain events, each recorded in the transaction of its change (an audit entry;
// group.created and group.member_joined also the owner's webhooks, and with group.join_requested
// the notifications of the owner and the group's admins). owner_id names whom they concern.
import type { GroupRole } from '@riff/contract';

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'group.created': { name: string; owner_id: string };
    'group.updated': { fields: string[] };
    'group.deleted': { name: string };
    /** A member joined (open group, approved request or accepted invite). */
    'group.member_joined': { user_id: string; owner_id: string; name: string; via: 'join' | 'request' | 'invite' };
    'group.member_left': { user_id: string };
    /** A join request waits: the owner and the admins are told. */
    'group.join_requested': { user_id: string; name: string };
    'group.request_denied': { user_id: string };
    'group.invited': { user_id: string; invite_id: string };
    'group.invite_declined': { invite_id: string };
    'group.role_changed': { user_id: string; role: GroupRole; previous: GroupRole };
    'group.member_removed': { user_id: string };
    'group.member_banned': { user_id: string };
    'group.transferred': { from: string; to: string };
  }
}

export {};

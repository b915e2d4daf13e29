import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userRoute, optionalAuth } from '../../common/route-meta.js';
import {
  GroupEnvelope,
  GroupInviteEnvelope,
  GroupInviteParamsSchema,
  GroupInvitePageEnvelope,
  GroupMemberEnvelope,
  GroupMemberPageEnvelope,
  GroupMemberParamsSchema,
  GroupMembersQuerySchema,
  GroupRequestPageEnvelope,
  GroupUserRequestSchema,
  SetGroupRoleRequestSchema,
} from './groups.schemas.js';

const c = initContract();

const HIDDEN = ' A group the caller may not see is 404 (a private one to non-members without an invite).';
const ADMINS = ' The owner and the group’s admins; other members and visitors who see the group get 403.';

/** Membership of a group: joining, leaving, members, requests, invites, roles, removals, bans, transfer. */
export const groupMembershipContract = c.router({
  join: {
    method: 'POST',
    path: '/groups/:id/join',
    summary: 'Join a group',
    description:
      'open: you become a member; request: your request waits for an admin (my_status pending; the admins are notified); ' +
      'invite: accepts your pending invite, else 403. Banned from the group: 403. Already a member or pending: the group ' +
      'as it is. At most 20 join requests a user an hour (asking again while one is pending does not count): 429 ' +
      'RATE_LIMITED beyond, with Retry-After.' +
      HIDDEN,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404) },
  },
  leave: {
    method: 'POST',
    path: '/groups/:id/leave',
    summary: 'Leave a group',
    description:
      'Ends your membership, or withdraws your pending request. The owner must transfer the group first (400).' +
      HIDDEN,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404) },
  },
  members: {
    method: 'GET',
    path: '/groups/:id/members',
    summary: 'The members of a group',
    description:
      'By role (owner first), then by joined date. Anyone for a public group; members for a private one (a user who ' +
      'holds an invite to it sees the group but not its members: 403).' +
      HIDDEN,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: GroupMembersQuerySchema,
    responses: { 200: GroupMemberPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  requests: {
    method: 'GET',
    path: '/groups/:id/requests',
    summary: 'Pending join requests',
    description: 'Oldest first.' + ADMINS + HIDDEN,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: GroupRequestPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  approveRequest: {
    method: 'POST',
    path: '/groups/:id/requests/:userId/approve',
    summary: 'Approve a join request',
    description: 'The user becomes a member. No pending request of that user: 404.' + ADMINS + HIDDEN,
    metadata: userRoute,
    pathParams: GroupMemberParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupMemberEnvelope, ...errors(400, 401, 403, 404) },
  },
  denyRequest: {
    method: 'POST',
    path: '/groups/:id/requests/:userId/deny',
    summary: 'Deny a join request',
    description: 'The request goes (the user may ask again). No pending request of that user: 404.' + ADMINS + HIDDEN,
    metadata: userRoute,
    pathParams: GroupMemberParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  invite: {
    method: 'POST',
    path: '/groups/:id/invites',
    summary: 'Invite a user',
    description:
      'The invited user may then see the group (even private) and accept or decline. A user who blocked an admin of the ' +
      'group or whom one blocked, or a user banned from it: 403. Already a member or invited: 409 CONFLICT. A missing ' +
      'user: 404. At most 100 invites a user an hour (refused ones do not count): 429 RATE_LIMITED beyond, with ' +
      'Retry-After.' +
      ADMINS +
      HIDDEN,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: GroupUserRequestSchema,
    responses: { 201: GroupInviteEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  myInvites: {
    method: 'GET',
    path: '/groups/invites/mine',
    summary: 'Your pending invites',
    description: 'Newest first; accepted and declined ones are not listed.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: GroupInvitePageEnvelope, ...errors(400, 401) },
  },
  acceptInvite: {
    method: 'POST',
    path: '/groups/invites/:inviteId/accept',
    summary: 'Accept an invite',
    description:
      'You become a member. Not your pending invite (or its group is gone): 404; banned from the group since: 403.',
    metadata: userRoute,
    pathParams: GroupInviteParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404) },
  },
  declineInvite: {
    method: 'POST',
    path: '/groups/invites/:inviteId/decline',
    summary: 'Decline an invite',
    description: 'The invite disappears from the lists. Not your pending invite: 404.',
    metadata: userRoute,
    pathParams: GroupInviteParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 404) },
  },
  setRole: {
    method: 'PUT',
    path: '/groups/:id/members/:userId',
    summary: 'Change a member’s role',
    description:
      'The owner sets admins (and any role below); admins set moderators and members, of members and moderators. Nobody ' +
      'changes the owner’s role (403; ownership passes by transfer). Not a member: 404.' +
      HIDDEN,
    metadata: userRoute,
    pathParams: GroupMemberParamsSchema,
    body: SetGroupRoleRequestSchema,
    responses: { 200: GroupMemberEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removeMember: {
    method: 'DELETE',
    path: '/groups/:id/members/:userId',
    summary: 'Remove a member',
    description:
      'Moderators remove members; admins remove moderators and members; the owner removes anyone but themselves. The owner ' +
      'is never removed (403). Not a member: 404. The user may join again (a ban keeps them out).' +
      HIDDEN,
    metadata: userRoute,
    pathParams: GroupMemberParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  ban: {
    method: 'POST',
    path: '/groups/:id/bans/:userId',
    summary: 'Ban a user from a group',
    description:
      'Removes them (membership, request and invite) and refuses their joining, requests and invites from then on. A user ' +
      'above the caller’s role or the owner: 403; yourself: 400; a missing user: 404.' +
      ADMINS +
      HIDDEN,
    metadata: userRoute,
    pathParams: GroupMemberParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  transfer: {
    method: 'POST',
    path: '/groups/:id/transfer',
    summary: 'Transfer ownership',
    description:
      'The owner only (others 403), to a member of the group (anyone else: 400). The old owner becomes an admin. The new ' +
      'owner at their limit of owned groups: 400 LIMIT_REACHED.' +
      HIDDEN,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: GroupUserRequestSchema,
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
});

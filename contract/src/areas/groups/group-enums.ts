/**
 * The enums of groups, declared once: the groups area's schemas, its tables' CHECKs and the posts
 * of a group (which ask the group who its reader is) all derive from these.
 */
import { z } from 'zod';

export const GROUP_VISIBILITIES = ['public', 'private'] as const;
export type GroupVisibility = (typeof GROUP_VISIBILITIES)[number];
export const GroupVisibilitySchema = z.enum(GROUP_VISIBILITIES);

/** open: anyone joins; request: an admin approves; invite: only an invitation lets one in. */
export const GROUP_JOIN_POLICIES = ['open', 'request', 'invite'] as const;
export type GroupJoinPolicy = (typeof GROUP_JOIN_POLICIES)[number];
export const GroupJoinPolicySchema = z.enum(GROUP_JOIN_POLICIES);

/** A member's role, highest first: each may act on the roles below its own. */
export const GROUP_ROLES = ['owner', 'admin', 'moderator', 'member'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];
export const GroupRoleSchema = z.enum(GROUP_ROLES);

/** Where the caller stands: a member, with a request waiting, or holding an invite. */
export const GROUP_MEMBER_STATUSES = ['member', 'pending', 'invited'] as const;
export type GroupMemberStatus = (typeof GROUP_MEMBER_STATUSES)[number];

/** Whether `role` is `atLeast` or above (owner > admin > moderator > member). */
export function groupRoleAtLeast(role: GroupRole | null | undefined, atLeast: GroupRole): boolean {
  return role != null && GROUP_ROLES.indexOf(role) <= GROUP_ROLES.indexOf(atLeast);
}

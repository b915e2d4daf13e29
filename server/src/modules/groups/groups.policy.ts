import { groupRoleAtLeast, type GroupRole } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { moderationAllows } from '../../platform/access/moderation.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { GroupView } from './groups.repository.js';

/**
 * Who reaches a group. Moderation first: a hidden or removed group is, for everyone but its owner and
 * staff, as if deleted. Then visibility: a public group is everyone's; a private one its members',
 * a user's holding an invite to it, and the service's admins (isOwnerOrAdmin).
 */
export function canReadGroup(actor: Actor, view: GroupView): boolean {
  if (!moderationAllows(actor, view.moderation_status, view.owner_id)) return false;
  if (view.visibility === 'public') return true;
  return view.my_role !== null || view.my_invite_id !== null || isOwnerOrAdmin(actor, view.owner_id);
}

/** Who sees a group's members: anyone for a public group, members (and admins) for a private one. */
export function canListMembers(actor: Actor, view: GroupView): boolean {
  return view.visibility === 'public' || view.my_role !== null || isOwnerOrAdmin(actor, view.owner_id);
}

/** The group's owner and admins (and the service's admins) edit it and handle requests and invites. */
export function canManageGroup(actor: Actor, view: GroupView): boolean {
  return groupRoleAtLeast(view.my_role, 'admin') || (actor.kind !== 'user' ? true : actor.isAdmin);
}

/** Only the owner (or an admin of the service) deletes a group. */
export function canDeleteGroup(actor: Actor, view: GroupView): boolean {
  return isOwnerOrAdmin(actor, view.owner_id);
}

/** The caller's effective role for acting on members: a service admin acts as the owner. */
export function actingRole(actor: Actor, view: GroupView): GroupRole | null {
  if (actor.kind === 'system' || (actor.kind === 'user' && actor.isAdmin)) return 'owner';
  return view.my_role;
}

/**
 * Whether a member of `actorRole` may give `newRole` to a member now of `targetRole`: the owner sets
 * admins and any role below; admins set moderators and members, of moderators and members; nobody
 * changes the owner's role (ownership passes only by a transfer).
 */
export function maySetRole(actorRole: GroupRole | null, targetRole: GroupRole, newRole: GroupRole): boolean {
  if (targetRole === 'owner' || newRole === 'owner') return false;
  if (actorRole === 'owner') return true;
  if (actorRole === 'admin') return targetRole !== 'admin' && newRole !== 'admin';
  return false;
}

/**
 * Whether a member of `actorRole` may remove (or ban) a member of `targetRole`: moderators remove
 * members, admins moderators and members, the owner anyone but themselves; never the owner.
 */
export function mayRemove(actorRole: GroupRole | null, targetRole: GroupRole | null): boolean {
  if (targetRole === 'owner') return false;
  if (actorRole === 'owner') return true;
  if (actorRole === 'admin') return targetRole !== 'admin';
  if (actorRole === 'moderator') return targetRole === 'member' || targetRole === null;
  return false;
}

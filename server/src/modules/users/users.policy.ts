import type { Actor } from '../../platform/access/actor.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';

/** Who may do what with an account: built on the one ownership rule. */

/** A profile is edited by its owner only: admins moderate, they do not write someone's profile. */
export const canEditProfile = (actor: Actor, userId: string): boolean => isOwner(actor, userId);

export const canDeactivate = (actor: Actor, userId: string): boolean => isOwnerOrAdmin(actor, userId);

export const canSeeCompletion = (actor: Actor, userId: string): boolean => isOwnerOrAdmin(actor, userId);

/** Owner-and-admin fields of a profile (email, birthdate, admin flag) and the names of a private one. */
export const canSeePrivateFields = (actor: Actor, userId: string): boolean => isOwnerOrAdmin(actor, userId);

export const canSeeRelations = (actor: Actor, profile: { id: string; is_public: boolean }): boolean =>
  profile.is_public || isOwnerOrAdmin(actor, profile.id);

/**
 * Admins see every account (deactivated and banned too), search and sort by email, and match
 * names that private profiles hide.
 */
export const seesEveryAccount = (actor: Actor): boolean => actor.isAdmin;

/** Whether the relation "you follow them" is shown: never on one's own profile. */
export const showsFollowState = (actor: Actor, userId: string): boolean =>
  actor.kind === 'user' && !isOwner(actor, userId);

/** Sorting by email would reveal the order of addresses the caller may not see. */
export const canSortBy = (actor: Actor, field: string): boolean => field !== 'email' || seesEveryAccount(actor);

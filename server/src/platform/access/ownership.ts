import type { Actor } from './actor.js';

/**
 * The one ownership rule every area's policy builds on: the owner of an object, or an admin,
 * may change it. Areas add their own rules (visibility, roles) in their `<area>.policy.ts`.
 */
export function isOwnerOrAdmin(actor: Actor, ownerId: string | null | undefined): boolean {
  if (actor.kind === 'system') return true;
  if (actor.kind !== 'user') return false;
  return actor.isAdmin || (ownerId != null && actor.id === ownerId);
}

/** Whether the caller is the owner (admins excluded: for things only the owner may do). */
export function isOwner(actor: Actor, ownerId: string | null | undefined): boolean {
  return actor.kind === 'user' && ownerId != null && actor.id === ownerId;
}

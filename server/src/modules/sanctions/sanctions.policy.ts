import { MODERATOR_SUSPENSION_MAX_DAYS } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { forbidden } from '../../platform/errors/app-error.js';
import { assertMayActOn } from '../../platform/access/staff-limits.js';
import type { AccountState } from '../users/account-standing.js';

const DAY_MS = 86_400_000;

/** Who acts: staff (a moderator or an admin), or the service itself (a rule such as three strikes). */
const isAdmin = (actor: Actor) => actor.kind === 'system' || (actor.kind === 'user' && actor.isAdmin);

/**
 * Whether the caller may sanction this account at all: staff only, never their own account, and a
 * moderator never an admin. Throws 403.
 */
export function checkMaySanction(actor: Actor, target: AccountState): void {
  if (actor.kind === 'system') return;
  if (actor.kind !== 'user' || !actor.isStaff) throw forbidden('Only staff may sanction an account');
  assertMayActOn(actor, { id: target.id, isAdmin: target.is_admin || target.role === 'admin' });
}

/** A moderator suspends for a limited time; longer suspensions, and bans, are an admin's. */
export function checkMaySuspendUntil(actor: Actor, until: Date | null, now: Date): void {
  if (isAdmin(actor)) return;
  if (!until || until.getTime() > now.getTime() + MODERATOR_SUSPENSION_MAX_DAYS * DAY_MS)
    throw forbidden(`A moderator may suspend for at most ${MODERATOR_SUSPENSION_MAX_DAYS} days; longer is an admin's`);
}

export function checkMayBan(actor: Actor): void {
  if (!isAdmin(actor)) throw forbidden('Only an admin may ban or unban an account');
}

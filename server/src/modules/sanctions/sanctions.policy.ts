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

/** Whether a suspension until then is longer than a moderator may give (one without an end is). */
const beyondModerator = (until: Date | null, now: Date) =>
  !until || until.getTime() > now.getTime() + MODERATOR_SUSPENSION_MAX_DAYS * DAY_MS;

/** A moderator suspends for a limited time; longer suspensions, and bans, are an admin's. */
export function checkMaySuspendUntil(actor: Actor, until: Date | null, now: Date): void {
  if (isAdmin(actor)) return;
  if (beyondModerator(until, now))
    throw forbidden(`A moderator may suspend for at most ${MODERATOR_SUSPENSION_MAX_DAYS} days; longer is an admin's`);
}

/**
 * A running suspension is lifted, or replaced by a new one, only by someone who could have given it: a
 * moderator would otherwise end an admin's longer suspension, or the one three strikes give (no
 * end, for an admin to lift), by lifting it or by suspending for a day in its place.
 */
export function checkMayEndSuspension(actor: Actor, target: AccountState, now: Date): void {
  if (isAdmin(actor) || !target.suspended_at) return;
  if (beyondModerator(target.suspended_until, now))
    throw forbidden(
      `This suspension is longer than a moderator may give (${MODERATOR_SUSPENSION_MAX_DAYS} days): only an admin lifts or replaces it`,
    );
}

export function checkMayBan(actor: Actor): void {
  if (!isAdmin(actor)) throw forbidden('Only an admin may ban or unban an account');
}

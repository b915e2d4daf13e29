import { MODERATOR_MAX_SUSPENSION_DAYS, type CaseAction } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import { forbidden } from '../../platform/errors/app-error.js';

/** Whom a staff action falls on: the owner of the content, or the user reported. */
export interface ActedOn {
  id: string;
  isAdmin: boolean;
}

/** Staff never act on their own content or account, and a moderator never on an admin's. */
export function assertMayActOn(actor: UserActor, owner: ActedOn | undefined): void {
  if (!owner) return;
  if (owner.id === actor.id) throw forbidden('Staff never act on their own content or account');
  if (owner.isAdmin && !actor.isAdmin) throw forbidden('A moderator never acts on an admin or their content');
}

/** A moderator warns and suspends for at most MODERATOR_MAX_SUSPENSION_DAYS; bans and longer suspensions are an admin's. */
export function assertMayTake(actor: UserActor, action: CaseAction, durationDays?: number): void {
  if (actor.isAdmin) return;
  if (action === 'ban') throw forbidden('Only an admin may ban');
  if (action === 'suspend' && (durationDays ?? 0) > MODERATOR_MAX_SUSPENSION_DAYS) {
    throw forbidden(`A moderator suspends for at most ${MODERATOR_MAX_SUSPENSION_DAYS} days`);
  }
}

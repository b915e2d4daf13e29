import type { Actor } from './actor.js';
import { forbidden } from '../errors/app-error.js';

/** Whom a staff action falls on: the owner of the content, or the account itself. */
export interface ActedOn {
  id: string;
  isAdmin: boolean;
}

/**
 * Staff never act on their own content or account, and a moderator never on an admin's: a rule of
 * every staff action (moderation of content, sanctions, decisions). The service itself (a rule
 * such as three strikes) is bound by neither. 403.
 */
export function assertMayActOn(actor: Actor, owner: ActedOn | undefined): void {
  if (!owner || actor.kind !== 'user') return;
  if (owner.id === actor.id) throw forbidden('Staff never act on their own content or account');
  if (owner.isAdmin && !actor.isAdmin) throw forbidden('A moderator never acts on an admin or their content');
}

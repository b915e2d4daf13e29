import type { UserActor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { AppPasswordRow } from './app-passwords.repository.js';

/** An app password is its owner's alone: nobody else learns it exists (admins included: it is a credential). */
export const canManageAppPassword = (actor: UserActor, row: Pick<AppPasswordRow, 'user_id'>) =>
  isOwner(actor, row.user_id);

import type { UserActor } from '../../platform/access/actor.js';

/** Whose entries a caller may read: their own, or (admins) everyone's, as undefined. */
export function readableAuditOwner(actor: UserActor): string | undefined {
  return actor.isAdmin ? undefined : actor.id;
}

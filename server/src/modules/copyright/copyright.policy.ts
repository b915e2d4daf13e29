import type { UserActor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { ClaimRow } from './copyright.tables.js';

/** A claim is seen by its two parties and by staff; to anyone else it does not exist. */
export const canSeeClaim = (actor: UserActor, row: ClaimRow) =>
  actor.isStaff || isOwner(actor, row.owner_id) || (row.claimant_id !== null && isOwner(actor, row.claimant_id));

/** Only the track's owner answers a claim. */
export const mayCounter = (actor: UserActor, row: ClaimRow) => isOwner(actor, row.owner_id);

/** Staff do not decide a claim they filed themselves (the rule on the track's owner is the staff limits'). */
export const filedIt = (actor: UserActor, row: ClaimRow) => row.claimant_id !== null && isOwner(actor, row.claimant_id);

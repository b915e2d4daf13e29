import type { Actor } from '../../platform/access/actor.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { GearRow } from './gear.tables.js';

/** A private item is its owner's (and admins'); a public one anyone's who may see its owner. */
export const canReadGear = (actor: Actor, row: Pick<GearRow, 'is_public' | 'user_id'>): boolean =>
  row.is_public || isOwnerOrAdmin(actor, row.user_id);

/** The owner or an admin may change or delete an item and its photos. */
export const canEditGear = (actor: Actor, row: Pick<GearRow, 'user_id'>): boolean => isOwnerOrAdmin(actor, row.user_id);

/** Only the owner adds photos (they count against their own item's limit as their own files). */
export const canAddGearPhoto = (actor: Actor, row: Pick<GearRow, 'user_id'>): boolean => isOwner(actor, row.user_id);

/** Whether the caller sees every item of this user (their own, or an admin), not just the public ones. */
export const seesAllGearOf = (actor: Actor, userId: string): boolean => isOwnerOrAdmin(actor, userId);

/** A track's items are set by the track's owner alone. */
export const canSetTrackGear = (actor: Actor, trackOwnerId: string | null): boolean => isOwner(actor, trackOwnerId);

import type { Actor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';

/** A cloud item is its owner's alone: anyone else (admins too) is told it does not exist. */
export const canUseCloudItem = (actor: Actor, row: { owner_id: string }) => isOwner(actor, row.owner_id);

import type { Actor } from '../../platform/access/actor.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';

type Hosted = { host_id: string };

/** Playback is the host's alone; anyone else holding the token may look and add (403 otherwise). */
export function canSteerSession(actor: Actor, session: Hosted): boolean {
  return isOwner(actor, session.host_id);
}

/** Ending: the host, or an admin (moderation). */
export function canEndSession(actor: Actor, session: Hosted): boolean {
  return isOwnerOrAdmin(actor, session.host_id);
}

/** An item goes by the host's (or an admin's) hand, or by whoever added it. */
export function canRemoveSessionItem(actor: Actor, session: Hosted, item: { added_by: string | null }): boolean {
  return isOwnerOrAdmin(actor, session.host_id) || isOwner(actor, item.added_by);
}

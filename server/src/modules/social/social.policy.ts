import type { Actor } from '../../platform/access/actor.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { TrackRow } from '../tracks/tracks.tables.js';

type Owned = Pick<TrackRow, 'creator_id'>;

/** Stats and the list of likers: the owner or an admin (others who see the track: 403). */
export const canSeeTrackAudience = (actor: Actor, track: Owned): boolean => isOwnerOrAdmin(actor, track.creator_id);

/** A private track's secret link is made by its owner only (nobody else may hand out access to it). */
export const canShareSecretly = (actor: Actor, track: Owned): boolean => isOwner(actor, track.creator_id);

/** Revoking it: the owner, or an admin. */
export const canRevokeSecret = (actor: Actor, track: Owned): boolean => isOwnerOrAdmin(actor, track.creator_id);

/** Reposts: public tracks of others. */
export const canRepost = (actor: Actor, track: Owned & Pick<TrackRow, 'is_public'>): boolean =>
  track.is_public && !isOwner(actor, track.creator_id);

/** Suggested tags: for the owner who will edit the track; anyone else who may see the track, admins too, gets 403. */
export const canSeeSuggestedTags = (actor: Actor, track: Owned): boolean => isOwner(actor, track.creator_id);

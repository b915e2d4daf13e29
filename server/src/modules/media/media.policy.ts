import type { Actor } from '../../platform/access/actor.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import { canReadTrack } from '../tracks/tracks.policy.js';
import type { MediaTrack } from './media.repository.js';

/**
 * Who may see a track's media (waveform, cover, HLS): whoever may read the track itself (the tracks
 * area's rule: public, or its owner's, an admin's, or with its secret link; never hidden by
 * moderation from anyone but its owner and staff), while it is not deleted.
 */
export function canSeeTrackMedia(
  actor: Actor,
  track: Pick<MediaTrack, 'creator_id' | 'is_public' | 'deleted_at' | 'share_secret_hash' | 'moderation_status'>,
  secret?: string,
): boolean {
  if (track.deleted_at) return false;
  return canReadTrack(actor, track, secret);
}

/** Who may follow the pipeline (status) and manage the audio (versions, restore): the owner or an admin. */
export function canManageTrackMedia(actor: Actor, track: Pick<MediaTrack, 'creator_id' | 'deleted_at'>): boolean {
  return !track.deleted_at && isOwnerOrAdmin(actor, track.creator_id);
}

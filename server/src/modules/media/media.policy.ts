import type { Actor } from '../../platform/access/actor.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import { secretOpens } from '../tracks/track-secret.js';
import type { MediaTrack } from './media.repository.js';

/** Who may see a track's media (waveform, cover, HLS): as the track itself: public, or its owner's, an admin's, or with its secret link. */
export function canSeeTrackMedia(
  actor: Actor,
  track: Pick<MediaTrack, 'creator_id' | 'is_public' | 'deleted_at' | 'share_secret_hash'>,
  secret?: string,
): boolean {
  if (track.deleted_at) return false;
  return track.is_public || isOwnerOrAdmin(actor, track.creator_id) || secretOpens(track.share_secret_hash, secret);
}

/** Who may follow the pipeline (status) and manage the audio (versions, restore): the owner or an admin. */
export function canManageTrackMedia(actor: Actor, track: Pick<MediaTrack, 'creator_id' | 'deleted_at'>): boolean {
  return !track.deleted_at && isOwnerOrAdmin(actor, track.creator_id);
}

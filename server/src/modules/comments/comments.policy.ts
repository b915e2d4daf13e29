import { sql, type SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import { moderationAllows, moderationAllowsSql } from '../../platform/access/moderation.js';
import { isOwner, isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { TrackRow } from '../tracks/tracks.tables.js';
import { canReadTrack } from '../tracks/tracks.policy.js';
import type { CommentRow, UnseenComments } from './comments.repository.js';

/** The part of a track comments depend on: who owns it, who may see it, how long it is. */
export type CommentedTrack = Pick<
  TrackRow,
  'id' | 'creator_id' | 'is_public' | 'duration' | 'deleted_at' | 'moderation_status'
>;

/** Comments are seen wherever their track is: a live track the caller may see. */
export function canSeeComments(actor: Actor, track: CommentedTrack): boolean {
  return track.deleted_at === null && canReadTrack(actor, track);
}

/**
 * A comment is seen with its track, unless moderation hid or removed it: then only its author and
 * staff see it (a reply to it too is out of reach for others, its thread being gone).
 */
export function canSeeComment(actor: Actor, comment: Pick<CommentRow, 'user_id' | 'moderation_status'>): boolean {
  return moderationAllows(actor, comment.moderation_status, comment.user_id);
}

/**
 * canSeeComment and the reader's blocks (`hiddenAuthors`: whom they blocked and who blocked them)
 * as the comments a reader does not see, over the comments table; null when they see them all.
 */
export function commentsUnseenSql(actor: Actor, hiddenAuthors: readonly string[]): UnseenComments {
  const parts = [];
  if (hiddenAuthors.length > 0) {
    parts.push(sql<SqlBool>`(comments.user_id is not null and comments.user_id in (${sql.join(hiddenAuthors)}))`);
  }
  if (!(actor.kind === 'system' || (actor.kind === 'user' && actor.isStaff))) {
    parts.push(sql<SqlBool>`not ${moderationAllowsSql(actor, 'comments', 'user_id')}`);
  }
  return parts.length === 0 ? null : sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/** Edit: the author only (not even an admin rewrites someone's words). */
export function canEditComment(actor: Actor, comment: Pick<CommentRow, 'user_id'>): boolean {
  return isOwner(actor, comment.user_id);
}

/** Delete: the author, the track's owner, or an admin. */
export function canDeleteComment(
  actor: Actor,
  comment: Pick<CommentRow, 'user_id'>,
  track: Pick<CommentedTrack, 'creator_id'>,
): boolean {
  return isOwner(actor, comment.user_id) || isOwnerOrAdmin(actor, track.creator_id);
}

/** In whose name a deletion is done, for its event. */
export function deletionRole(
  actor: Actor,
  comment: Pick<CommentRow, 'user_id'>,
  track: Pick<CommentedTrack, 'creator_id'>,
) {
  if (isOwner(actor, comment.user_id)) return 'author' as const;
  if (isOwner(actor, track.creator_id)) return 'track_owner' as const;
  return 'admin' as const;
}

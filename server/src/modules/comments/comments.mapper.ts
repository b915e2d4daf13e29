import type { Comment } from '@riff/contract';
import type { CommentRow } from './comments.repository.js';

/** A comment as every reader sees it; a deleted one shows neither its content nor its author. */
export function toCommentDto(row: CommentRow): Comment {
  const deleted = row.deleted_at !== null;
  const author =
    !deleted && row.user_id && row.author_username !== null && row.author_deleted_at === null
      ? { id: row.user_id, username: row.author_username, slug: row.author_slug ?? '', avatar: row.author_avatar }
      : null;
  return {
    id: row.id,
    track_id: row.track_id,
    user: author,
    parent_id: row.parent_id,
    content: deleted ? null : row.content,
    timestamp: Number(row.position_seconds),
    reply_count: row.reply_count,
    is_edited: row.is_edited,
    is_deleted: deleted,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

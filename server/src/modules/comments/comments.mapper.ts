import type { Comment } from '@riff/contract';
import type { PersonName } from '../users/people-reader.js';
import type { CommentRow } from './comments.repository.js';
import { withModerationState } from '../../platform/access/moderation.js';

/**
 * A comment as every reader sees it; a deleted one shows neither its content nor its author, nor
 * does one whose author's account is gone. `authors`: PeopleReader.names of the comments' user ids.
 */
export function toCommentDto(row: CommentRow, authors: ReadonlyMap<string, PersonName>): Comment {
  const deleted = row.deleted_at !== null;
  const person = !deleted && row.user_id ? authors.get(row.user_id) : undefined;
  const author =
    row.user_id && person && person.deleted_at === null
      ? { id: row.user_id, username: person.username, slug: person.slug, avatar: person.avatar }
      : null;
  return withModerationState(
    {
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
    },
    row,
  );
}

import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';
import type { ModerationColumns } from '../../platform/access/moderation.js';

export interface CommentsTable extends ModerationColumns {
  id: Generated<string>;
  track_id: string;
  /** Null once the comment is deleted. */
  user_id: string | null;
  parent_id: string | null;
  /** Null once the comment is deleted. */
  content: string | null;
  position_seconds: Generated<number>;
  reply_count: Generated<number>;
  is_edited: Generated<boolean>;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TrackCommentCountsTable {
  track_id: string;
  top_level: Generated<number>;
}

/** The comments area's tables: comments and the number of top-level comments per track. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    comments: CommentsTable;
    track_comment_counts: TrackCommentCountsTable;
  }
}

import type { Generated } from 'kysely';
import type { ModerationColumns } from '../../platform/access/moderation.js';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface GroupPostsTable extends ModerationColumns {
  id: Generated<string>;
  group_id: string;
  author_id: string;
  /** The top-level post a reply answers; null for a top-level post. */
  parent_id: string | null;
  content: string;
  track_id: string | null;
  playlist_id: string | null;
  is_pinned: Generated<boolean>;
  pinned_at: Timestamp | null;
  reply_count: Generated<number>;
  is_edited: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** The group posts' table. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    group_posts: GroupPostsTable;
  }
}

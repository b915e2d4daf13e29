import { sql } from 'kysely';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { GroupPostRow } from './group-posts.repository.js';

/** The group posts' side of moderation: a post's state, read and set over its own table. */
export function createGroupPostModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<GroupPostRow>(scope, clock, {
    table: 'group_posts',
    ownerColumn: 'author_id',
    // a deleted post is gone from the table: every row is live
    live: sql`true`,
    snapshot: (row) => ({ text: row.content, group_id: row.group_id, parent_id: row.parent_id }),
  });
}

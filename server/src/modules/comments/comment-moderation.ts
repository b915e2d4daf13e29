import { sql } from 'kysely';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CommentRow } from './comments.repository.js';

/** The comments area's side of moderation: a live comment's state, read and set over its own table. */
export function createCommentModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<CommentRow>(scope, clock, {
    table: 'comments',
    ownerColumn: 'user_id',
    live: sql`deleted_at is null`,
    snapshot: (row) => ({ text: row.content, track_id: row.track_id, position_seconds: row.position_seconds }),
  });
}

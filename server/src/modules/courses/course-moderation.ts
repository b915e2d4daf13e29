import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CourseRow } from './courses.tables.js';

/** The education area's side of moderation: a course's state, read and set over its own table; staff judge its texts. */
export function createCourseModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<CourseRow>(scope, clock, {
    table: 'courses',
    ownerColumn: 'instructor_id',
    snapshot: (row) => ({
      title: row.title,
      summary: row.summary,
      description: row.description,
      topics: row.topics,
      status: row.status,
    }),
  });
}

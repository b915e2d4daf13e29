import { sql, type Kysely } from 'kysely';

/**
 * Timestamped comments with one level of replies (ADDENDUM Part 2 "Comments"). A deleted comment
 * that still has replies stays as a tombstone (deleted_at set, content and user_id null). The
 * number of top-level comments per track is kept in track_comment_counts, so a page of a track
 * with 100k comments costs what a page of one with 100 does: the pages read the partial indexes
 * below (index-only where they can), never count the rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    // null once the comment is deleted (a tombstone does not say who wrote it)
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('parent_id', 'uuid', (col) => col.references('comments.id').onDelete('cascade'))
    .addColumn('content', 'text')
    .addColumn('position_seconds', 'double precision', (col) =>
      col.notNull().defaultTo(0).check(sql`position_seconds >= 0`),
    )
    .addColumn('reply_count', 'integer', (col) => col.notNull().defaultTo(0).check(sql`reply_count >= 0`))
    .addColumn('is_edited', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('comments_content_or_deleted', sql`(deleted_at is null) = (content is not null)`)
    .execute();
  // the three orders of a track's top-level comments, and replies oldest first; user_id rides along
  // so that leaving out blocked authors still reads the index only
  await sql`create index comments_track_created on comments (track_id, created_at, id) include (user_id) where parent_id is null`.execute(
    db,
  );
  await sql`create index comments_track_position on comments (track_id, position_seconds, created_at, id) include (user_id) where parent_id is null`.execute(
    db,
  );
  await sql`create index comments_parent_created on comments (parent_id, created_at, id) include (user_id) where parent_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('comments_user_track').on('comments').columns(['user_id', 'track_id']).execute();

  await db.schema
    .createTable('track_comment_counts')
    .addColumn('track_id', 'uuid', (col) => col.primaryKey().references('tracks.id').onDelete('cascade'))
    .addColumn('top_level', 'integer', (col) => col.notNull().defaultTo(0).check(sql`top_level >= 0`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['track_comment_counts', 'comments']) await db.schema.dropTable(table).ifExists().execute();
}

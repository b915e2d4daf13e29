import { sql, type Kysely } from 'kysely';

/**
 * The notification inbox: one row per notification of a user, made by a job from committed
 * events. Likes of one track fold into one row (`fold_key`, `actor_ids` newest first, `count`),
 * `in_app` says whether the inbox shows it (the user's preference when it was made), `email_due`
 * whether the daily digest still has to mail it. Rows older than 90 days are deleted by a job.
 * The CHECKs spell the contract's NOTIFICATION_TYPES and NOTIFICATION_SUBJECT_TYPES.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`type in ('follow', 'like', 'repost', 'comment', 'reply', 'collaborator_added', 'group_join_request', 'group_joined', 'group_post', 'sale', 'course_enrolled', 'course_completed', 'order_completed', 'order_refunded', 'moderation', 'announcement')`,
        ),
    )
    .addColumn('actor_ids', sql`uuid[]`, (col) => col.notNull().defaultTo(sql`'{}'::uuid[]`))
    .addColumn('count', 'integer', (col) => col.notNull().defaultTo(1).check(sql`count >= 1`))
    .addColumn('subject_type', 'text', (col) =>
      col.check(sql`subject_type in ('track', 'comment', 'user', 'playlist', 'product', 'order')`),
    )
    .addColumn('subject_id', 'uuid')
    .addColumn('subject_title', 'text')
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('fold_key', 'text')
    .addColumn('in_app', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('email_due', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('first_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('read_at', 'timestamptz')
    .execute();
  // the inbox, newest first, and its unread part
  await sql`create index notifications_inbox on notifications (user_id, created_at desc, id desc) where in_app`.execute(
    db,
  );
  await sql`create index notifications_unread on notifications (user_id) where in_app and read_at is null`.execute(db);
  // the open fold of a track's likes, found when the next like comes
  await sql`create index notifications_fold on notifications (user_id, fold_key, first_at desc) where fold_key is not null and read_at is null`.execute(
    db,
  );
  await sql`create index notifications_email_due on notifications (user_id) where email_due`.execute(db);
  await sql`create index notifications_created on notifications (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}

import { sql, type Kysely } from 'kysely';

/**
 * Appeals: a user's appeal of a moderation decision about their content, of a sanction of their
 * account, or of a copyright strike, and staff's decision. One open appeal per subject (a partial
 * unique index backs the service's check). The CHECKs spell the contract's enums (appeal.schemas.ts).
 * `decided_by` has no foreign key: the decision stays when the staff member's account is erased.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('appeals')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('subject_type', 'text', (col) =>
      col.notNull().check(sql`subject_type in ('content', 'sanction', 'strike')`),
    )
    .addColumn('subject_id', 'uuid', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) =>
      col.check(sql`target_type in ('track', 'comment', 'playlist', 'product', 'group', 'group_post', 'course')`),
    )
    .addColumn('message', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('open').check(sql`status in ('open', 'granted', 'denied')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('decided_at', 'timestamptz')
    .addColumn('decided_by', 'uuid')
    .addColumn('note', 'text')
    .execute();
  await sql`create index appeals_user on appeals (user_id, created_at desc)`.execute(db);
  await sql`create index appeals_status on appeals (status, created_at)`.execute(db);
  await sql`create unique index appeals_one_open on appeals (subject_type, subject_id) where status = 'open'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('appeals').execute();
}

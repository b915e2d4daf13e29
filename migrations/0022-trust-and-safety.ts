import { sql, type Kysely } from 'kysely';

/**
 * Trust and safety. Each content table gains its moderation state (hidden and removed content is,
 * for everyone but its owner and staff, as if deleted; `moderated_at` dates a removal, whose files
 * are purged 30 days later). Users gain their suspension (`suspended_at`, and `suspended_until`, null
 * for a suspension that only an admin lifts) and an upload quota of their own. The moderation area's
 * tables: reports, cases (the reports of one target, grouped, with the target as it was at the first
 * report), a case's history, and sanctions; the admin area's: the append-only staff log and the
 * platform's settings (one row). The CHECKs spell the contract's enums (moderation-states.ts).
 */
const CONTENT_TABLES = ['tracks', 'comments', 'playlists', 'products'] as const;
const TARGET_TYPES = sql.raw(`('track', 'comment', 'user', 'playlist', 'product', 'group', 'group_post', 'course')`);
const REASONS = sql.raw(
  `('spam', 'harassment', 'hate', 'sexual', 'violence', 'self_harm', 'copyright', 'impersonation', 'illegal', 'other')`,
);

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of CONTENT_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('moderation_status', 'text', (col) =>
        col.notNull().defaultTo('visible').check(sql`moderation_status in ('visible', 'hidden', 'removed')`),
      )
      .addColumn('moderation_reason', 'text')
      .addColumn('moderated_at', 'timestamptz')
      .execute();
  }
  await sql`create index tracks_removed on tracks (moderated_at) where moderation_status = 'removed'`.execute(db);

  await db.schema
    .alterTable('users')
    .addColumn('suspended_at', 'timestamptz')
    .addColumn('suspended_until', 'timestamptz')
    .addColumn('quota_bytes', 'bigint')
    .execute();
  await sql`create index users_suspended on users (suspended_until) where suspended_at is not null`.execute(db);

  await db.schema
    .createTable('moderation_cases')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('target_type', 'text', (col) => col.notNull().check(sql`target_type in ${TARGET_TYPES}`))
    .addColumn('target_id', 'uuid', (col) => col.notNull())
    .addColumn('owner_id', 'uuid')
    .addColumn('target_snapshot', 'jsonb', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('open').check(sql`status in ('open', 'resolved', 'dismissed')`),
    )
    .addColumn('assigned_to', 'uuid')
    .addColumn('report_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('first_reported_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_reported_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'uuid')
    .addColumn('action', 'text')
    .execute();
  // one open case per target; the queue, most reported first, then oldest
  await sql`create unique index moderation_cases_open_target on moderation_cases (target_type, target_id) where status = 'open'`.execute(
    db,
  );
  await sql`create index moderation_cases_queue on moderation_cases (status, report_count desc, first_reported_at, id)`.execute(
    db,
  );
  await sql`create index moderation_cases_owner on moderation_cases (owner_id)`.execute(db);

  await db.schema
    .createTable('reports')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('case_id', 'uuid', (col) => col.notNull().references('moderation_cases.id').onDelete('cascade'))
    .addColumn('reporter_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('target_type', 'text', (col) => col.notNull().check(sql`target_type in ${TARGET_TYPES}`))
    .addColumn('target_id', 'uuid', (col) => col.notNull())
    .addColumn('reason', 'text', (col) => col.notNull().check(sql`reason in ${REASONS}`))
    .addColumn('details', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('open').check(sql`status in ('open', 'resolved', 'dismissed')`),
    )
    .addColumn('outcome', 'text', (col) => col.check(sql`outcome in ('action_taken', 'no_violation')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('resolved_at', 'timestamptz')
    .execute();
  // one open report per reporter and target
  await sql`create unique index reports_open_per_reporter on reports (reporter_id, target_type, target_id) where status = 'open'`.execute(
    db,
  );
  await sql`create index reports_reporter on reports (reporter_id, created_at desc, id desc)`.execute(db);
  await sql`create index reports_case on reports (case_id, created_at)`.execute(db);

  await db.schema
    .createTable('moderation_case_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('case_id', 'uuid', (col) => col.notNull().references('moderation_cases.id').onDelete('cascade'))
    .addColumn('actor_id', 'uuid')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index moderation_case_events_case on moderation_case_events (case_id, created_at)`.execute(db);

  await db.schema
    .createTable('sanctions')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('warn', 'suspend', 'ban')`))
    .addColumn('reason', 'text', (col) => col.notNull())
    .addColumn('actor_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('ends_at', 'timestamptz')
    .addColumn('lifted_at', 'timestamptz')
    .addColumn('lifted_by', 'uuid')
    .addColumn('appeal_token_hash', 'text')
    .execute();
  await sql`create index sanctions_user on sanctions (user_id, created_at desc)`.execute(db);
  await sql`create unique index sanctions_appeal_token on sanctions (appeal_token_hash) where appeal_token_hash is not null`.execute(
    db,
  );

  await db.schema
    .createTable('staff_log')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('actor_id', 'uuid', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'uuid')
    .addColumn('reason', 'text')
    .addColumn('before', 'jsonb')
    .addColumn('after', 'jsonb')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index staff_log_created on staff_log (created_at desc, id desc)`.execute(db);
  await sql`create index staff_log_actor on staff_log (actor_id, created_at desc)`.execute(db);
  await sql`create index staff_log_target on staff_log (target_type, target_id, created_at desc)`.execute(db);

  await db.schema
    .createTable('platform_settings')
    .addColumn('id', 'boolean', (col) => col.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('settings', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_by', 'uuid')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'platform_settings',
    'staff_log',
    'sanctions',
    'moderation_case_events',
    'reports',
    'moderation_cases',
  ]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema
    .alterTable('users')
    .dropColumn('suspended_at')
    .dropColumn('suspended_until')
    .dropColumn('quota_bytes')
    .execute();
  for (const table of CONTENT_TABLES) {
    await db.schema
      .alterTable(table)
      .dropColumn('moderation_status')
      .dropColumn('moderation_reason')
      .dropColumn('moderated_at')
      .execute();
  }
}

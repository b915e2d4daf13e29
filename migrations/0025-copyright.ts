import { sql, type Kysely } from 'kysely';

/**
 * Copyright: claims against tracks (the claimant's statements, kept without their contact once their
 * account is erased; the owner's counter-notice; staff's decision) and the strikes an upheld claim
 * gives the track's owner (12 months; lifted by a granted appeal). The CHECK spells the contract's
 * COPYRIGHT_CLAIM_STATUSES (enum-constraints test). A claim names its track and parties without
 * foreign keys: it stays a record when the track or an account goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('copyright_claims')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('track_id', 'uuid', (col) => col.notNull())
    .addColumn('track_title', 'text', (col) => col.notNull())
    .addColumn('owner_id', 'uuid', (col) => col.notNull())
    .addColumn('claimant_id', 'uuid')
    .addColumn('claimant_name', 'text')
    .addColumn('claimant_email', 'text')
    .addColumn('work_description', 'text', (col) => col.notNull())
    .addColumn('original_url', 'text')
    .addColumn('statement_good_faith', 'boolean', (col) => col.notNull())
    .addColumn('statement_accuracy', 'boolean', (col) => col.notNull())
    .addColumn('signature', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'countered', 'upheld', 'rejected')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('counter_deadline', 'timestamptz', (col) => col.notNull())
    .addColumn('counter_statement', 'text')
    .addColumn('counter_signature', 'text')
    .addColumn('countered_at', 'timestamptz')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('decided_by', 'uuid')
    .addColumn('decision_note', 'text')
    .execute();
  // one undecided claim per claimant and track; the daily limit; each side's list; the staff queue; the job
  await sql`create unique index copyright_claims_open on copyright_claims (claimant_id, track_id)
    where status in ('pending', 'countered')`.execute(db);
  await sql`create index copyright_claims_claimant on copyright_claims (claimant_id, created_at desc)`.execute(db);
  await sql`create index copyright_claims_owner on copyright_claims (owner_id, created_at desc)`.execute(db);
  await sql`create index copyright_claims_status on copyright_claims (status, created_at)`.execute(db);
  await sql`create index copyright_claims_unanswered on copyright_claims (counter_deadline) where status = 'pending'`.execute(
    db,
  );

  await db.schema
    .createTable('strikes')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('claim_id', 'uuid', (col) => col.notNull().references('copyright_claims.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('lifted_at', 'timestamptz')
    .addColumn('lifted_by', 'uuid')
    .execute();
  await sql`create unique index strikes_claim on strikes (claim_id)`.execute(db);
  await sql`create index strikes_user on strikes (user_id, created_at desc)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('strikes').execute();
  await db.schema.dropTable('copyright_claims').execute();
}

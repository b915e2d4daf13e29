import { sql, type Kysely } from 'kysely';

/**
 * The batches of an admin announcement already delivered: a job that dies after its transaction
 * committed is run again by the queue, and finds its batch here instead of telling its 500
 * accounts twice. `after_key` is the last account id of the previous batch ('' for the first).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table announcement_batches (
    announcement_id uuid not null,
    after_key text not null,
    delivered_at timestamptz not null default now(),
    primary key (announcement_id, after_key)
  )`.execute(db);
  await sql`create index announcement_batches_delivered on announcement_batches (delivered_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table announcement_batches`.execute(db);
}

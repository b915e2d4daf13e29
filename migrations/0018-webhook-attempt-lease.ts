import { sql, type Kysely } from 'kysely';

/**
 * One attempt of a webhook delivery at a time: the job that makes an attempt takes a lease
 * (attempting_until, the send's timeout and a margin) under the delivery's row lock, and another
 * job for the same delivery stops while it runs (a redelivery asked for during a send, an outbox
 * message handled twice). The lease lapses by itself if the process dies in the middle, and a
 * periodic job resumes pending deliveries whose time has long passed with no attempt under way
 * (webhook_deliveries_due): a job lost with its worker does not leave a message unsent.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column attempting_until timestamptz`.execute(db);
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_deliveries_due`.execute(db);
  await sql`alter table webhook_deliveries drop column attempting_until`.execute(db);
}

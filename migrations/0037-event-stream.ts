import { sql, type Kysely } from 'kysely';

/**
 * The event stream: events for consumers that take them in batches (analytics roll-ups), one row per
 * event and consumer, written in the transaction of the change and deleted by the consumer in the
 * transaction that applies them. So a consumer sees only committed events, each exactly once,
 * whatever order concurrent transactions commit in (a cursor over a sequence would skip a row whose
 * transaction commits after a later one was read).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_stream')
    .addColumn('seq', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('consumer', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    .addColumn('subject_type', 'text', (col) => col.notNull())
    .addColumn('subject_id', 'text')
    .addColumn('user_id', 'uuid')
    .addColumn('actor_id', 'uuid')
    .addColumn('occurred_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create index event_stream_consumer on event_stream (consumer, seq)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_stream').ifExists().execute();
}

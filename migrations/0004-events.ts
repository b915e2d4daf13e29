import { sql, type Kysely } from 'kysely';

/** The outbox of domain events: written in the transaction of the change, read by handlers once committed. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('domain_events')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('payload', 'jsonb', (col) => col.notNull())
    // no foreign key: an event outlives the account that caused it (erasure anonymizes, it does not rewrite history)
    .addColumn('actor_id', 'uuid')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('domain_events_type_created')
    .on('domain_events')
    .columns(['type', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('domain_events').ifExists().execute();
}

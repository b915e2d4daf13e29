import { sql, type Kysely } from 'kysely';

/**
 * Which Subsonic app last saved a user's play queue (savePlayQueue), and the queue's version it left:
 * getPlayQueue answers that app as `changedBy` while the queue is still at that version, and Riff's
 * own name once anything else (the JSON API, another app) changed it. One row per user; the queue
 * itself stays the queue area's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('subsonic_queue_clients')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('client', 'text', (col) => col.notNull().check(sql`char_length(client) between 1 and 200`))
    .addColumn('queue_version', 'integer', (col) => col.notNull().check(sql`queue_version >= 0`))
    .addColumn('saved_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subsonic_queue_clients').execute();
}

import type { Kysely } from 'kysely';

/**
 * One random salt per UTC day, shared by every instance: an anonymous listener's key is the day's
 * keyed hash of address and user agent. Salts of past days are deleted (the platform's prune job),
 * after which no hash of those days can be recomputed from an address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('daily_salts')
    .addColumn('day', 'date', (col) => col.primaryKey())
    .addColumn('salt', 'bytea', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('daily_salts').execute();
}

import type { Kysely } from 'kysely';

/**
 * Counted anonymous plays per track and address (a keyed hash: the address itself is never
 * stored) in the current period, which starts at the first counted play. The unique key makes
 * the bound race-free across instances: concurrent plays from one address wait for each other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('track_play_address_windows')
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('period_start', 'timestamptz', (col) => col.notNull())
    .addColumn('plays', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('track_play_address_windows_pk', ['track_id', 'address'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('track_play_address_windows').ifExists().execute();
}

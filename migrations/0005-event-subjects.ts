import type { Kysely } from 'kysely';

/** An event says what it is about and whose account it belongs to, beside who caused it. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domain_events')
    .addColumn('subject_type', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('subject_id', 'text')
    .addColumn('user_id', 'uuid')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('domain_events')
    .dropColumn('subject_type')
    .dropColumn('subject_id')
    .dropColumn('user_id')
    .execute();
}

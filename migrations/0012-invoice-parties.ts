import type { Kysely } from 'kysely';

/**
 * An invoice keeps its buyer and seller as they were when it was issued (name, and the buyer's
 * email), so the document reads the same every time, whatever the accounts become later.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('buyer', 'jsonb').addColumn('seller', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').dropColumn('buyer').dropColumn('seller').execute();
}

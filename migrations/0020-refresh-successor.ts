import { sql, type Kysely } from 'kysely';

/**
 * A rotated refresh token keeps its successor, sealed under the server's key: presented again
 * within the reuse grace (two tabs refreshing with the same cookie at once), it is answered with
 * that same successor instead of being treated as a stolen token. Nulled once the grace is over.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refresh_tokens add column successor_sealed text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table refresh_tokens drop column successor_sealed`.execute(db);
}

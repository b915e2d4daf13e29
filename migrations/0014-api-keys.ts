import { sql, type Kysely } from 'kysely';

/**
 * Developer API keys (ADDENDUM "Developer API keys"). A key is stored as its SHA-256 (it carries
 * 238 bits of its own entropy), found by that hash on every request; `prefix` is what lists show.
 * The CHECK spells the contract's API_KEY_SCOPES (tests/contract/enum-constraints.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('prefix', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('scopes', sql`text[]`, (col) =>
      col.notNull().check(sql`scopes <@ array['read', 'write', 'admin']::text[] and cardinality(scopes) > 0`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('api_keys').execute();
}

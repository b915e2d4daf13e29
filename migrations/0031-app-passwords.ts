import { sql, type Kysely } from 'kysely';

/**
 * App passwords for Subsonic apps. Subsonic's token sign-in sends md5(password + salt) with a new
 * salt each time, so the server must read the password back to check it: it is stored sealed
 * (AES-256-GCM under a key derived from SECRET_KEY for this purpose), never hashed. A user holds at
 * most a handful (the service's limit), all read to check one sign-in: the index serves that read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('password_sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('app_passwords_user').on('app_passwords').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_passwords').execute();
}

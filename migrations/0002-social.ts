import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('followee_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('follows_pk', ['follower_id', 'followee_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followee_id`)
    .execute();
  await db.schema.createIndex('follows_followee').on('follows').columns(['followee_id', 'created_at']).execute();

  await db.schema
    .createTable('blocks')
    .addColumn('blocker_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('blocked_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('blocks_pk', ['blocker_id', 'blocked_id'])
    .addCheckConstraint('blocks_not_self', sql`blocker_id <> blocked_id`)
    .execute();
  await db.schema.createIndex('blocks_blocked').on('blocks').column('blocked_id').execute();

  await db.schema
    .createTable('user_preferences')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('settings', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('do_not_sell_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema.createIndex('users_created_at').on('users').column('created_at').execute();
  await sql`create index users_username_trgm on users using gin ((username::text) gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists users_username_trgm`.execute(db);
  await db.schema.dropIndex('users_created_at').ifExists().execute();
  for (const table of ['user_preferences', 'blocks', 'follows']) await db.schema.dropTable(table).ifExists().execute();
}

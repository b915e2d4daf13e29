import { sql, type Kysely } from 'kysely';

/**
 * The play queue and shared listening sessions (ADDENDUM Part 2 "Play queue and shared sessions").
 * Positions are unique per queue and per session, checked at commit (deferred) so that a write
 * can shift them; every write locks its queue's or session's row, so they stay 0…n-1. The CHECK
 * on repeat spells the contract's QUEUE_REPEAT_MODES (tests/contract/enum-constraints.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('queues')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('current_index', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position_seconds', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('shuffle', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('repeat', 'text', (col) => col.notNull().defaultTo('off').check(sql`repeat in ('off', 'one', 'all')`))
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('queue_items')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('queues.user_id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('added_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table queue_items add constraint queue_items_position unique (user_id, position) deferrable initially deferred`.execute(
    db,
  );

  await db.schema
    .createTable('queue_sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    // sha256 of the share token: a leaked table does not hand out sessions
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('host_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text')
    .addColumn('current_index', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('position_seconds', 'double precision', (col) => col.notNull().defaultTo(0))
    .addColumn('is_playing', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('queue_sessions_host').on('queue_sessions').column('host_id').execute();
  await db.schema.createIndex('queue_sessions_expires').on('queue_sessions').column('expires_at').execute();

  await db.schema
    .createTable('queue_session_items')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('session_id', 'uuid', (col) => col.notNull().references('queue_sessions.id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('added_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('added_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`alter table queue_session_items add constraint queue_session_items_position unique (session_id, position) deferrable initially deferred`.execute(
    db,
  );
  await db.schema.createIndex('queue_session_items_added_by').on('queue_session_items').column('added_by').execute();

  await db.schema
    .createTable('queue_session_participants')
    .addColumn('session_id', 'uuid', (col) => col.notNull().references('queue_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('joined_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('queue_session_participants_pk', ['session_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('queue_session_participants_user')
    .on('queue_session_participants')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('queue_session_messages')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('session_id', 'uuid', (col) => col.notNull().references('queue_sessions.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('queue_session_messages_session')
    .on('queue_session_messages')
    .columns(['session_id', 'created_at'])
    .execute();
  await db.schema.createIndex('queue_session_messages_user').on('queue_session_messages').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'queue_session_messages',
    'queue_session_participants',
    'queue_session_items',
    'queue_sessions',
    'queue_items',
    'queues',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

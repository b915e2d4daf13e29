import { sql, type Kysely } from 'kysely';

/**
 * Playlists (ADDENDUM Part 2 "Playlists"): the tables made with likes (0007) gain a version (the
 * snapshot_id), a share link kept only as its hash, collaborators and followers. The CHECK on
 * permission spells the contract's PLAYLIST_PERMISSIONS (tests/contract/enum-constraints.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('playlists')
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  // sha256 of the share token: a leaked table does not hand out playlists
  await db.schema
    .alterTable('playlists')
    .addColumn('share_token_hash', 'text', (col) => col.unique())
    .execute();
  await db.schema.alterTable('playlists').addColumn('share_expires_at', 'timestamptz').execute();
  await db.schema
    .createIndex('playlists_public_created')
    .on('playlists')
    .columns(['is_public', 'created_at'])
    .execute();

  await db.schema
    .createTable('playlist_collaborators')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('playlist_id', 'uuid', (col) => col.notNull().references('playlists.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('permission', 'text', (col) => col.notNull().check(sql`permission in ('read', 'write', 'admin')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('playlist_collaborators_once', ['playlist_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('playlist_collaborators_user')
    .on('playlist_collaborators')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('playlist_followers')
    .addColumn('playlist_id', 'uuid', (col) => col.notNull().references('playlists.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('playlist_followers_pk', ['playlist_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('playlist_followers_user')
    .on('playlist_followers')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('playlist_followers_daily')
    .on('playlist_followers')
    .columns(['playlist_id', 'created_at'])
    .execute();

  await db.schema
    .createIndex('track_plays_playlist')
    .on('track_plays')
    .columns(['playlist_id', 'track_id'])
    .where(sql.ref('playlist_id'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('track_plays_playlist').ifExists().execute();
  await db.schema.dropTable('playlist_followers').ifExists().execute();
  await db.schema.dropTable('playlist_collaborators').ifExists().execute();
  await db.schema.dropIndex('playlists_public_created').ifExists().execute();
  for (const column of ['share_expires_at', 'share_token_hash', 'version'])
    await db.schema.alterTable('playlists').dropColumn(column).execute();
}

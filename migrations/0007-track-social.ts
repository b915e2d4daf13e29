import { sql, type Kysely } from 'kysely';

/**
 * Track social (likes, reposts, shares, plays, history) and the playlists it needs: a like is the
 * track's entry in the liker's favorites playlist (one truth), so `playlists` and
 * `playlist_tracks` are created here with SPEC's Playlist fields; the playlists area extends them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('playlists')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull().check(sql`char_length(title) between 1 and 200`))
    .addColumn('description', 'text', (col) => col.check(sql`char_length(description) <= 1000`))
    .addColumn('cover_url', 'text')
    .addColumn('is_public', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('is_default_favorites', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('is_editorial', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('follower_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('playlists_favorites_private', sql`not (is_default_favorites and is_public)`)
    .execute();
  await db.schema.createIndex('playlists_user').on('playlists').columns(['user_id', 'created_at']).execute();
  // one favorites playlist per user: the first like of two at once makes one
  await sql`create unique index playlists_one_favorites on playlists (user_id) where is_default_favorites`.execute(db);

  await db.schema
    .createTable('playlist_tracks')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('playlist_id', 'uuid', (col) => col.notNull().references('playlists.id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('added_by', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('added_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('playlist_tracks_once', ['playlist_id', 'track_id'])
    .execute();
  // checked at the end of each statement, so closing a gap (position - 1 over the rest) passes
  await sql`alter table playlist_tracks add constraint playlist_tracks_position unique (playlist_id, position) deferrable initially immediate`.execute(
    db,
  );
  await db.schema
    .createIndex('playlist_tracks_track')
    .on('playlist_tracks')
    .columns(['track_id', 'added_at'])
    .execute();

  await db.schema
    .createTable('track_reposts')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('track_reposts_pk', ['user_id', 'track_id'])
    .execute();
  await db.schema.createIndex('track_reposts_track').on('track_reposts').columns(['track_id', 'created_at']).execute();
  await db.schema
    .createIndex('track_reposts_user_created')
    .on('track_reposts')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('track_shares')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('platform', 'text', (col) =>
      col.notNull().check(sql`platform in ('link', 'twitter', 'facebook', 'whatsapp', 'email', 'embed', 'other')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('track_shares_track').on('track_shares').columns(['track_id', 'created_at']).execute();
  await db.schema.createIndex('track_shares_user').on('track_shares').column('user_id').execute();

  // a private track's secret link: only its hash, and the nonce it is derived from (see track-secret.ts)
  await db.schema.alterTable('tracks').addColumn('share_secret_hash', 'text').execute();
  await db.schema.alterTable('tracks').addColumn('share_secret_nonce', 'text').execute();
  await db.schema.createIndex('tracks_genre').on('tracks').columns(['genre']).execute();

  // the last counted play of each listener on each track: the unique key makes the 30-minute rule race-free
  await db.schema
    .createTable('track_play_windows')
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('listener', 'text', (col) => col.notNull())
    .addColumn('counted_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('track_play_windows_pk', ['track_id', 'listener'])
    .execute();

  // every play reported (counted or not), for the owner's stats
  await db.schema
    .createTable('track_plays')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('listener', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('track', 'playlist', 'queue', 'session', 'embed', 'search')`),
    )
    .addColumn('playlist_id', 'uuid')
    .addColumn('duration_listened', 'double precision', (col) => col.notNull())
    .addColumn('completed', 'boolean', (col) => col.notNull())
    .addColumn('counted', 'boolean', (col) => col.notNull())
    .addColumn('played_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('track_plays_track_time').on('track_plays').columns(['track_id', 'played_at']).execute();
  await db.schema.createIndex('track_plays_user').on('track_plays').columns(['user_id', 'played_at']).execute();

  // one row per download of the original (GET /download from its first byte), for the owner's stats
  await db.schema
    .createTable('track_downloads')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('downloaded_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('track_downloads_track')
    .on('track_downloads')
    .columns(['track_id', 'downloaded_at'])
    .execute();

  await db.schema
    .createTable('listening_history')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('track', 'playlist', 'queue', 'session', 'embed', 'search')`),
    )
    .addColumn('duration_listened', 'double precision', (col) => col.notNull())
    .addColumn('played_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('listening_history_user')
    .on('listening_history')
    .columns(['user_id', 'played_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'listening_history',
    'track_downloads',
    'track_plays',
    'track_play_windows',
    'track_shares',
    'track_reposts',
    'playlist_tracks',
    'playlists',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await db.schema.dropIndex('tracks_genre').ifExists().execute();
  await db.schema.alterTable('tracks').dropColumn('share_secret_nonce').execute();
  await db.schema.alterTable('tracks').dropColumn('share_secret_hash').execute();
}

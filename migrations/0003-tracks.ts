import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tracks')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('creator_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('artist', 'text')
    .addColumn('album', 'text')
    .addColumn('genre', 'text')
    .addColumn('genres', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('tags', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('year', 'integer')
    .addColumn('bpm', 'integer')
    .addColumn('musical_key', 'text')
    .addColumn('is_public', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('duration', 'integer', (col) => col.notNull())
    .addColumn('bitrate', 'integer')
    .addColumn('sample_rate', 'integer')
    .addColumn('file_size', 'bigint', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull().check(sql`format in ('mp3', 'wav', 'flac', 'ogg')`))
    .addColumn('file_key', 'text')
    .addColumn('md5', 'text', (col) => col.notNull())
    .addColumn('original_filename', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('uploading', 'processing', 'completed', 'failed')`),
    )
    .addColumn('status_message', 'text')
    .addColumn('stream_status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`stream_status in ('pending', 'processing', 'ready', 'error')`),
    )
    .addColumn('stream_manifest_url', 'text')
    .addColumn('cover_art_path', 'text')
    .addColumn('waveform_path', 'text')
    .addColumn('play_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('like_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('tracks_creator').on('tracks').columns(['creator_id', 'created_at']).execute();
  await db.schema.createIndex('tracks_public_created').on('tracks').columns(['is_public', 'created_at']).execute();
  await sql`create index tracks_title_trgm on tracks using gin (title gin_trgm_ops)`.execute(db);

  await db.schema
    .createTable('track_lyrics')
    .addColumn('track_id', 'uuid', (col) => col.primaryKey().references('tracks.id').onDelete('cascade'))
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('is_synced', 'boolean', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('filename', 'text', (col) => col.notNull())
    .addColumn('total_chunks', 'integer', (col) => col.notNull())
    .addColumn('total_size', 'bigint', (col) => col.notNull())
    .addColumn('state', 'text', (col) =>
      col.notNull().defaultTo('active').check(sql`state in ('active', 'assembling')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('upload_sessions_user').on('upload_sessions').column('user_id').execute();
  await db.schema.createIndex('upload_sessions_updated').on('upload_sessions').column('updated_at').execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('upload_id', 'uuid', (col) => col.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('chunk_number', 'integer', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('upload_chunks_pk', ['upload_id', 'chunk_number'])
    .execute();

  // Objects being written: a crash leaves the row, and the cleanup removes the object.
  await db.schema
    .createTable('storage_intents')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['storage_intents', 'upload_chunks', 'upload_sessions', 'track_lyrics', 'tracks']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

import { sql, type Kysely } from 'kysely';

/**
 * The media pipeline (ADDENDUM Part 2 "Media pipeline"): every audio a track has had (the current
 * one included), the files derived from the current audio with the state of the jobs making them,
 * and avatars. The CHECK lists spell the contract's tuples (TRACK_FORMATS, MEDIA_JOB_STATES,
 * MEDIA_TRANSCODERS): tests/contract/enum-constraints.test.ts holds them equal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('track_versions')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('version_number', 'integer', (col) => col.notNull())
    .addColumn('file_key', 'text', (col) => col.notNull())
    .addColumn('format', 'text', (col) => col.notNull().check(sql`format in ('mp3', 'wav', 'flac', 'ogg')`))
    .addColumn('duration', 'integer', (col) => col.notNull())
    .addColumn('bitrate', 'integer')
    .addColumn('sample_rate', 'integer')
    .addColumn('file_size', 'bigint', (col) => col.notNull())
    .addColumn('md5', 'text', (col) => col.notNull())
    .addColumn('original_filename', 'text')
    .addColumn('is_current', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('track_versions_number', ['track_id', 'version_number'])
    .execute();
  await sql`create unique index track_versions_current on track_versions (track_id) where is_current`.execute(db);
  // every track that has audio gets it as its version 1, current
  await sql`
    insert into track_versions (id, track_id, version_number, file_key, format, duration, bitrate, sample_rate, file_size, md5, original_filename, is_current, created_at)
    select gen_random_uuid(), id, 1, file_key, format, duration, bitrate, sample_rate, file_size, md5, original_filename, true, created_at
    from tracks where file_key is not null
  `.execute(db);

  await db.schema
    .createTable('track_media')
    .addColumn('track_id', 'uuid', (col) => col.primaryKey().references('tracks.id').onDelete('cascade'))
    // the pipeline run the jobs belong to: a job of an older run (the audio was replaced since) does nothing
    .addColumn('run_id', 'uuid', (col) => col.notNull())
    .addColumn('version_id', 'uuid', (col) => col.references('track_versions.id').onDelete('set null'))
    .addColumn('transcoder', 'text', (col) =>
      col.notNull().defaultTo('ffmpeg').check(sql`transcoder in ('ffmpeg', 'external')`),
    )
    .addColumn('hls_state', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`hls_state in ('pending', 'processing', 'ready', 'error')`),
    )
    .addColumn('hls_progress', 'smallint', (col) =>
      col.notNull().defaultTo(0).check(sql`hls_progress between 0 and 100`),
    )
    .addColumn('hls_prefix', 'text')
    .addColumn('waveform_state', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`waveform_state in ('pending', 'processing', 'ready', 'error')`),
    )
    .addColumn('waveform_key', 'text')
    .addColumn('cover_key', 'text')
    .addColumn('cover_content_type', 'text')
    .addColumn('message', 'text')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('user_avatars')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('large_key', 'text', (col) => col.notNull())
    .addColumn('small_key', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['user_avatars', 'track_media', 'track_versions']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

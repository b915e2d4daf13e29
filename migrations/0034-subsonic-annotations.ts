import { sql, type Kysely } from 'kysely';

/** The play sources each play table's CHECK allows (the contract's PLAY_SOURCES, as of this migration). */
const SOURCES_BEFORE = ['track', 'playlist', 'queue', 'session', 'embed', 'search'];
const SOURCES_AFTER = [...SOURCES_BEFORE, 'subsonic'];

async function constrainPlaySources(db: Kysely<unknown>, sources: readonly string[]): Promise<void> {
  const list = sql.raw(sources.map((source) => `'${source}'`).join(', '));
  for (const table of ['track_plays', 'listening_history']) {
    await sql`alter table ${sql.table(table)} drop constraint if exists ${sql.raw(`${table}_source_check`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.raw(`${table}_source_check`)}
      check (source in (${list}))`.execute(db);
  }
}

/**
 * The Subsonic interface's media annotations. A play scrobbled by a player app is counted with the
 * source `subsonic`. Riff has no ratings of its own: Subsonic's 1–5 stars per user live in
 * subsonic_ratings, keyed by the id the app rated (a track, a creator, or an album's UUID v5, which no
 * table holds: hence no foreign key on item_id; a row whose item is gone is never shown). "Now
 * playing" is one row per user, replaced by each announcement, shown to followers until expires_at
 * (the track's end and a margin for pauses).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await constrainPlaySources(db, SOURCES_AFTER);
  await db.schema
    .createTable('subsonic_ratings')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_id', 'uuid', (col) => col.notNull())
    .addColumn('item_type', 'text', (col) => col.notNull().check(sql`item_type in ('song', 'album', 'artist')`))
    .addColumn('rating', 'smallint', (col) => col.notNull().check(sql`rating between 1 and 5`))
    .addColumn('rated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('subsonic_ratings_pk', ['user_id', 'item_id'])
    .execute();
  await db.schema
    .createTable('subsonic_now_playing')
    .addColumn('user_id', 'uuid', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('track_id', 'uuid', (col) => col.notNull().references('tracks.id').onDelete('cascade'))
    .addColumn('client', 'text', (col) => col.notNull())
    .addColumn('started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('subsonic_now_playing').execute();
  await db.schema.dropTable('subsonic_ratings').execute();
  for (const table of ['track_plays', 'listening_history']) {
    await sql`delete from ${sql.table(table)} where source = 'subsonic'`.execute(db);
  }
  await constrainPlaySources(db, SOURCES_BEFORE);
}

import { sql, type Kysely } from 'kysely';

/**
 * Random songs without reading the library: riff_track_shuffle(id) is a fixed number in [0, 1)
 * drawn from a track's id (as track_albums.shuffle is for albums), indexed over the public tracks, so
 * a random song is the first one at or after a random point: an index probe, whatever the library's
 * size (the Subsonic interface's getRandomSongs, which players call for every "random mix").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function riff_track_shuffle(uuid) returns float8 language sql immutable strict parallel safe
    as $$ select (('x' || substr(md5($1::text), 1, 13))::bit(52)::bigint / 4503599627370496.0)::float8 $$`.execute(db);
  await sql`create index tracks_shuffle on tracks (riff_track_shuffle(id)) where deleted_at is null and is_public`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index tracks_shuffle`.execute(db);
  await sql`drop function riff_track_shuffle(uuid)`.execute(db);
}

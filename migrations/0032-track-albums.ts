import { sql, type Kysely } from 'kysely';

/** Which tracks make the albums everyone sees: live, public, ready to play, not hidden or removed. */
const PUBLISHED = sql`t.deleted_at is null and t.is_public and t.status = 'completed' and t.moderation_status = 'visible'`;

/**
 * Albums as player apps browse them, kept by the database so that a list of albums is an index range
 * whatever the size of the catalogue (the Subsonic interface's getAlbumList2 and search3 at a million
 * tracks within 2× of their time at ten thousand).
 *
 * - tracks.album_id: a track's album, computed by PostgreSQL from the row itself (a stored generated
 *   column), so that no write path can forget it. Within a creator, an album is the distinct album tag
 *   of their tracks compared trimmed, runs of white space as one, in any case (riff_album_key); its id
 *   is a UUID v5 in the creator's id of that key, stable across calls, restarts and callers, and two
 *   creators' albums of one name differ. A track without a tag is a single, an album of its own: its
 *   id is a UUID v5 in the track's id of "single".
 * - track_albums: one row per album of the published tracks (public, ready, visible), with what a list
 *   shows and sorts by: its name (its first track's tag, or the single's title), songs, duration, first
 *   publication, latest year, first genre by name. Triggers keep it in step with tracks in the writing
 *   transaction. A listener's library is these rows (less the creators they may not deal with) plus the
 *   caller's own albums, read live from their tracks (their private and moderated tracks included).
 *
 * Two transactions changing tracks of one album each recompute it from what they see: each first takes
 * a transaction lock on the album's creator, so the second recomputes after the first committed (a
 * plpgsql statement under read committed sees what committed before it began) and neither loses the
 * other's track. One lock per creator, not per album, so that a statement over a creator's thousands of
 * tracks holds one lock; one touching more than 64 creators (a bulk load) locks the table once instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists "uuid-ossp"`.execute(db);
  await sql`create function riff_album_key(text) returns text language sql immutable parallel safe
    as $$ select case when btrim(coalesce($1, '')) = '' then null
      else lower(regexp_replace(btrim($1), '[[:space:]]+', ' ', 'g')) end $$`.execute(db);
  await sql`create function riff_album_id(creator uuid, album text, track uuid) returns uuid language sql immutable parallel safe
    as $$ select case when public.riff_album_key(album) is null then public.uuid_generate_v5(track, 'single')
      else public.uuid_generate_v5(creator, public.riff_album_key(album)) end $$`.execute(db);
  await sql`alter table tracks add column album_id uuid generated always as (riff_album_id(creator_id, album, id)) stored`.execute(
    db,
  );
  await sql`create index tracks_album on tracks (album_id, created_at, id) where deleted_at is null`.execute(db);
  // the library's songs in the order they were published (search3's empty query pages through them)
  await sql`create index tracks_published_order on tracks (created_at, id) where deleted_at is null and is_public`.execute(
    db,
  );

  await sql`create table track_albums (
    album_id uuid primary key,
    creator_id uuid not null references users (id) on delete cascade,
    name text not null,
    song_count integer not null,
    duration integer not null,
    created timestamptz not null,
    year integer,
    genre text,
    -- a fixed number in [0, 1) drawn from the id: a random album is the first at or after a random point
    shuffle double precision not null
  )`.execute(db);
  await sql`create index track_albums_creator on track_albums (creator_id, created, album_id)`.execute(db);
  await sql`create index track_albums_created on track_albums (created, album_id)`.execute(db);
  await sql`create index track_albums_name on track_albums ((riff_norm(name) collate "C"), album_id)`.execute(db);
  await sql`create index track_albums_name_trgm on track_albums using gin (riff_norm(name) gin_trgm_ops)`.execute(db);
  await sql`create index track_albums_genre on track_albums (lower(genre), (riff_norm(name) collate "C"), album_id) where genre is not null`.execute(
    db,
  );
  await sql`create index track_albums_year on track_albums (year, album_id) where year is not null`.execute(db);
  await sql`create index track_albums_shuffle on track_albums (shuffle)`.execute(db);

  // the albums given, of the creators given, recomputed from their published tracks (gone when none is left)
  await sql`create function riff_refresh_albums(touched uuid[], creators uuid[]) returns void language plpgsql as $$
    begin
      if cardinality(creators) > 64 then
        lock table public.track_albums in share row exclusive mode;
      else
        perform pg_advisory_xact_lock(hashtext('track_albums'), hashtext(c::text)) from unnest(creators) c order by c;
      end if;
      delete from public.track_albums where album_id = any(touched);
      insert into public.track_albums (album_id, creator_id, name, song_count, duration, created, year, genre, shuffle)
      select t.album_id, t.creator_id,
        (array_agg(case when public.riff_album_key(t.album) is null then t.title else btrim(t.album) end
          order by t.created_at, t.id))[1],
        count(*)::int, coalesce(sum(t.duration), 0)::int, min(t.created_at), max(t.year),
        min(nullif(btrim(t.genre), '')),
        (('x' || substr(md5(t.album_id::text), 1, 13))::bit(52)::bigint / 4503599627370496.0)::float8
      from public.tracks t
      where t.album_id = any(touched) and ${PUBLISHED}
      group by t.album_id, t.creator_id;
    end $$`.execute(db);
  await sql`create function riff_track_albums_inserted() returns trigger language plpgsql as $$
    begin
      perform public.riff_refresh_albums(array(select distinct album_id from new_rows order by 1),
        array(select distinct creator_id from new_rows order by 1));
      return null;
    end $$`.execute(db);
  await sql`create function riff_track_albums_deleted() returns trigger language plpgsql as $$
    begin
      perform public.riff_refresh_albums(array(select distinct album_id from old_rows order by 1),
        array(select distinct creator_id from old_rows order by 1));
      return null;
    end $$`.execute(db);
  await sql`create function riff_track_albums_updated() returns trigger language plpgsql as $$
    begin
      perform public.riff_refresh_albums(array(select distinct a from unnest(array[old.album_id, new.album_id]) a order by 1),
        array(select distinct c from unnest(array[old.creator_id, new.creator_id]) c order by 1));
      return null;
    end $$`.execute(db);
  await sql`create trigger tracks_albums_insert after insert on tracks referencing new table as new_rows
    for each statement execute function riff_track_albums_inserted()`.execute(db);
  await sql`create trigger tracks_albums_delete after delete on tracks referencing old table as old_rows
    for each statement execute function riff_track_albums_deleted()`.execute(db);
  // per row, and only when what an album shows or who sees it changed: a play or a like (counters) costs nothing here
  await sql`create trigger tracks_albums_update after update on tracks for each row
    when (old.album_id is distinct from new.album_id or old.title is distinct from new.title
      or old.album is distinct from new.album or old.is_public is distinct from new.is_public
      or old.status is distinct from new.status or old.moderation_status is distinct from new.moderation_status
      or old.deleted_at is distinct from new.deleted_at or old.duration is distinct from new.duration
      or old.year is distinct from new.year or old.genre is distinct from new.genre
      or old.created_at is distinct from new.created_at)
    execute function riff_track_albums_updated()`.execute(db);

  await sql`select riff_refresh_albums(array(select distinct album_id from tracks order by 1),
    array(select distinct creator_id from tracks order by 1))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`tracks_albums_${op}`)} on tracks`.execute(db);
  }
  for (const fn of ['riff_track_albums_inserted', 'riff_track_albums_deleted', 'riff_track_albums_updated']) {
    await sql`drop function ${sql.raw(fn)}()`.execute(db);
  }
  await sql`drop function riff_refresh_albums(uuid[], uuid[])`.execute(db);
  await sql`drop table track_albums`.execute(db);
  await sql`drop index tracks_published_order`.execute(db);
  await sql`alter table tracks drop column album_id`.execute(db);
  await sql`drop function riff_album_id(uuid, text, uuid)`.execute(db);
  await sql`drop function riff_album_key(text)`.execute(db);
}

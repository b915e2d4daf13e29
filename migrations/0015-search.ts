import { sql, type Kysely } from 'kysely';

/**
 * The search engine (ADDENDUM "Search, suggestions, trending"): one normal form of text
 * (riff_norm: lower case, accents removed) and one document per searchable row (riff_doc), each
 * indexed twice: a tsvector (GIN, for websearch_to_tsquery and ts_rank) and its trigrams (GIN, for
 * typos and substrings). Suggestions read btree indexes of the normal form in byte order (collation C), a prefix being a range of it. Expression
 * indexes rather than stored columns: a row is searchable as it changes, in the same transaction,
 * and the hot reads that select every column carry nothing more. Functions name their schema so
 * that maintenance run under an empty search_path still finds them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists unaccent`.execute(db);
  await sql`create function riff_norm(text) returns text language sql immutable strict parallel safe
    as $$ select lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$`.execute(db);
  await sql`create function riff_doc(text, text, text) returns text language sql immutable parallel safe
    as $$ select public.riff_norm(coalesce($1, '') || ' ' || coalesce($2, '') || ' ' || coalesce($3, '')) $$`.execute(
    db,
  );

  const searchable = async (table: string, doc: string, where: string) => {
    await sql
      .raw(`create index ${table}_search_tsv on ${table} using gin (to_tsvector('simple'::regconfig, ${doc}))${where}`)
      .execute(db);
    await sql
      .raw(`create index ${table}_search_trgm on ${table} using gin ((${doc}) gin_trgm_ops)${where}`)
      .execute(db);
  };
  await searchable('tracks', 'riff_doc(title, artist, album)', ' where deleted_at is null');
  await searchable('playlists', 'riff_doc(title, description, null)', ' where not is_default_favorites');
  await searchable('products', 'riff_doc(title, description, null)', '');
  // a user's names only match where they may be seen, so the username is a document of its own
  await sql`create index users_search_username_trgm on users using gin (riff_norm(username::text) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index users_search_names_tsv on users using gin (to_tsvector('simple'::regconfig, riff_doc(username::text, first_name, last_name)))`.execute(
    db,
  );
  await sql`create index users_search_names_trgm on users using gin (riff_doc(username::text, first_name, last_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`drop index products_text_trgm`.execute(db);

  await sql`create index tracks_suggest_title on tracks ((riff_norm(title) collate "C")) where is_public and deleted_at is null`.execute(
    db,
  );
  await sql`create index tracks_suggest_artist on tracks ((riff_norm(artist) collate "C")) where is_public and deleted_at is null and artist is not null`.execute(
    db,
  );
  await sql`create index users_suggest_username on users ((riff_norm(username::text) collate "C")) where deleted_at is null`.execute(
    db,
  );
  await sql`create index playlists_suggest_title on playlists ((riff_norm(title) collate "C")) where is_public and not is_default_favorites`.execute(
    db,
  );

  // trending reads the events of a period (24 h to 30 days) in time order
  await sql`create index track_plays_counted_time on track_plays (played_at) include (track_id) where counted`.execute(
    db,
  );
  await sql`create index track_reposts_time on track_reposts (created_at) include (track_id)`.execute(db);
  await sql`create index comments_time on comments (created_at) include (track_id) where content is not null`.execute(
    db,
  );
  await sql`create index playlist_tracks_time on playlist_tracks (added_at) include (track_id, playlist_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index products_text_trgm on products using gin ((title || ' ' || coalesce(description, '')) gin_trgm_ops)`.execute(
    db,
  );
  for (const index of [
    'tracks_search_tsv',
    'tracks_search_trgm',
    'playlists_search_tsv',
    'playlists_search_trgm',
    'products_search_tsv',
    'products_search_trgm',
    'users_search_username_trgm',
    'users_search_names_tsv',
    'users_search_names_trgm',
    'tracks_suggest_title',
    'tracks_suggest_artist',
    'users_suggest_username',
    'playlists_suggest_title',
    'track_plays_counted_time',
    'track_reposts_time',
    'comments_time',
    'playlist_tracks_time',
  ])
    await sql`drop index ${sql.id(index)}`.execute(db);
  await sql`drop function riff_doc(text, text, text)`.execute(db);
  await sql`drop function riff_norm(text)`.execute(db);
}

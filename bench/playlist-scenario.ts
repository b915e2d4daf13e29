/**
 * A 10,000-track public playlist (issue 14): its rows, written in SQL, and the bare server's read of
 * it: node:http and one query returning the same rows in order, as JSON.
 */
export const PLAYLIST_TRACKS = 10_000;
export const BARE_PLAYLIST_ROUTE = /^\/playlists\/([0-9a-f-]{36})$/;

type Query = (text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

/** A verified user owning PLAYLIST_TRACKS public tracks, and a public playlist holding all of them in order. */
export async function seedPlaylist(query: Query, ids: { userId: string; playlistId: string }): Promise<void> {
  const tag = ids.userId.slice(0, 8);
  await query(
    `insert into users (id, email, username, slug, password_hash, social_links, is_verified, email_verified_at)
     values ($1, $2, $3::text, $3::text, 'x', '{}', true, now())`,
    [ids.userId, `playlist-${tag}@example.test`, `playlist-${tag}`],
  );
  await query(
    `insert into tracks (id, creator_id, title, artist, genres, tags, duration, bitrate, sample_rate, file_size, format, file_key, md5, original_filename, status, is_public, created_at)
     select gen_random_uuid(), $1::uuid, 'Track number ' || i, 'The Bench Ensemble', '[]', '[]', 180 + i % 120, 1411, 44100, 1000000, 'wav', 'bench/' || $1::text || '/' || i, md5($1::text || i), 'bench.wav', 'completed', true,
            now() - make_interval(secs => i)
     from generate_series(1, ${PLAYLIST_TRACKS}) as i`,
    [ids.userId],
  );
  await query(
    `insert into playlists (id, user_id, title, description, is_public) values ($1, $2, 'Ten thousand', 'A long one', true)`,
    [ids.playlistId, ids.userId],
  );
  await query(
    `insert into playlist_tracks (playlist_id, track_id, added_by, position)
     select $1, id, $2::uuid, (row_number() over (order by created_at, id)) - 1 from tracks where creator_id = $2::uuid`,
    [ids.playlistId, ids.userId],
  );
  await query('analyze playlist_tracks', []);
  await query('analyze tracks', []);
}

export async function unseedPlaylist(query: Query, ids: { userId: string; playlistId: string }): Promise<void> {
  await query('delete from playlists where id = $1', [ids.playlistId]);
  await query('delete from tracks where creator_id = $1', [ids.userId]);
  await query('delete from users where id = $1', [ids.userId]);
}

/** Tracks in Riff's reply when the caller names no page (PLAYLIST_TRACKS_PAGE_DEFAULT). */
export const PLAYLIST_PAGE = 100;

/** The bare read: the playlist, how many tracks a signed-in user may see, and the first page of them in position order. */
export async function barePlaylist(query: Query, playlistId: string): Promise<string | undefined> {
  const [playlist] = await query('select * from playlists where id = $1', [playlistId]);
  if (!playlist) return undefined;
  const visible =
    'from playlist_tracks pt join tracks t on t.id = pt.track_id where pt.playlist_id = $1 and t.deleted_at is null and t.is_public';
  const [counted] = await query(`select count(*) as n ${visible}`, [playlistId]);
  const tracks = await query(
    `select pt.id as entry_id, pt.position, pt.added_by, pt.added_at, t.* ${visible} order by pt.position limit ${PLAYLIST_PAGE}`,
    [playlistId],
  );
  return JSON.stringify({ success: true, data: { playlist: { ...playlist, track_count: counted?.n, tracks } } });
}

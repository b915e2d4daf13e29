import { sql } from 'kysely';
import { onTestFinished } from 'vitest';
import type { TestServer } from '../support/test-server.js';

export interface NamedTrack {
  title: string;
  artist?: string | null;
  album?: string | null;
  /** Seconds (default 180). */
  duration?: number;
  isPublic?: boolean;
}

/**
 * Tracks with the given names straight into the database (the names are what matching reads;
 * uploading audio for each is not what these tests are about): live, completed, owned by
 * `creatorId`. Returns their ids in order.
 */
export async function seedNamedTracks(
  server: TestServer,
  creatorId: string,
  tracks: readonly NamedTrack[],
): Promise<string[]> {
  const rows = tracks.map((track) => ({
    title: track.title,
    artist: track.artist ?? null,
    album: track.album ?? null,
    duration: track.duration ?? 180,
    is_public: track.isPublic ?? true,
  }));
  const result = await sql<{ id: string }>`
    insert into tracks (id, creator_id, title, artist, album, duration, file_size, format, md5, status, is_public, created_at)
    select gen_random_uuid(), ${creatorId}, r.title, r.artist, r.album, r.duration, 1000, 'mp3', md5(r.title || r.ord::text), 'completed', r.is_public,
           now() + r.ord * interval '1 millisecond'
    from jsonb_to_recordset(${JSON.stringify(rows.map((row, index) => ({ ...row, ord: index })))}::jsonb)
      as r(title text, artist text, album text, duration integer, is_public boolean, ord integer)
    order by r.ord
    returning id`.execute(server.riff.platform.scope.db);
  const ids = result.rows.map((row) => row.id);
  // the PostgreSQL database is shared: thousands of leftover tracks would weigh on every later test
  onTestFinished(async () => {
    await sql`delete from tracks where id = any(${ids}::uuid[])`.execute(server.riff.platform.scope.db);
  });
  return ids;
}

/** The number of playlists the user owns, straight from the database. */
export async function ownedPlaylists(server: TestServer, userId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from playlists where user_id = ${userId}`.execute(
    server.riff.platform.scope.db,
  );
  return Number(rows[0]!.n);
}

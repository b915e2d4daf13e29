import { sql } from 'kysely';
import { onTestFinished } from 'vitest';
import { PLAYLIST_TRACKS_PAGE_MAX, type Playlist } from '@riff/contract';
import type { TestServer } from '../support/test-server.js';
import type { TestUser } from '../support/factories.js';
import { expectStatus } from '../support/typed-api.js';

export async function createPlaylist(
  user: TestUser,
  body: { title?: string; description?: string; is_public?: boolean } = {},
): Promise<Playlist> {
  return expectStatus(await user.api.playlists.create({ body: { title: 'Mix', ...body } }), 201).body.data.playlist;
}

export async function readPlaylist(user: TestUser, id: string) {
  const reply = expectStatus(await user.api.playlists.get({ params: { id } }), 200);
  return { playlist: reply.body.data.playlist, etag: reply.headers.get('etag') };
}

/** Every track of a playlist as the user sees it, page by page (a reply holds at most PLAYLIST_TRACKS_PAGE_MAX). */
export async function readAllTracks(user: TestUser, id: string) {
  const tracks: NonNullable<Playlist['tracks']> = [];
  for (;;) {
    const reply = expectStatus(
      await user.api.playlists.get({
        params: { id },
        query: { tracks_offset: tracks.length, tracks_limit: PLAYLIST_TRACKS_PAGE_MAX },
      }),
      200,
    );
    const page = reply.body.data.playlist.tracks ?? [];
    tracks.push(...page);
    if (page.length < PLAYLIST_TRACKS_PAGE_MAX) return { tracks, trackCount: reply.body.data.playlist.track_count };
  }
}

export async function addTracks(user: TestUser, playlistId: string, trackIds: string[]) {
  for (const trackId of trackIds)
    expectStatus(await user.api.playlists.addTrack({ params: { id: playlistId }, body: { track_id: trackId } }), 200);
}

export const trackIdsOf = (playlist: Playlist) => (playlist.tracks ?? []).map((entry) => entry.track_id);
export const positionsOf = (playlist: Playlist) => (playlist.tracks ?? []).map((entry) => entry.position);

export function errorOf(reply: { status: number; body: unknown }): [number, string] {
  return [reply.status, (reply.body as { error: { code: string } }).error.code];
}

/**
 * Many tracks at once, straight into the database (uploading 10,000 files is not what a test of
 * playlists is about): live, completed, owned by `creatorId`. Returns their ids in order.
 */
export async function seedTracks(
  server: TestServer,
  creatorId: string,
  count: number,
  isPublic = true,
): Promise<string[]> {
  const result = await sql<{ id: string }>`
    insert into tracks (id, creator_id, title, duration, file_size, format, md5, status, is_public, created_at)
    select gen_random_uuid(), ${creatorId}, 'Seeded ' || g, 180, 1000, 'mp3', md5(g::text), 'completed', ${isPublic}, now() + g * interval '1 millisecond'
    from generate_series(1, ${count}) g
    returning id`.execute(server.riff.platform.scope.db);
  const ids = result.rows.map((row) => row.id);
  // thousands of seeded tracks would weigh on every other test sharing the database afterwards
  onTestFinished(async () => {
    await sql`delete from tracks where id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`.execute(
      server.riff.platform.scope.db,
    );
  });
  return ids;
}

/** Appends tracks to a playlist straight in the database, after those it holds. */
export async function seedEntries(
  server: TestServer,
  playlistId: string,
  trackIds: string[],
  addedBy: string,
): Promise<void> {
  await sql`insert into playlist_tracks (playlist_id, track_id, added_by, position)
            select ${playlistId}, t.id::uuid, ${addedBy},
                   (select count(*) from playlist_tracks where playlist_id = ${playlistId}) + t.ord - 1
            from jsonb_array_elements_text(${JSON.stringify(trackIds)}::jsonb) with ordinality as t(id, ord)`.execute(
    server.riff.platform.scope.db,
  );
}

/** Playlists owned by the user, straight in the database (to reach the per-user cap). */
export async function seedPlaylists(server: TestServer, userId: string, count: number): Promise<void> {
  await sql`insert into playlists (user_id, title) select ${userId}, 'Seeded ' || g from generate_series(1, ${count}) g`.execute(
    server.riff.platform.scope.db,
  );
}

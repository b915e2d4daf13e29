import { randomUUID } from 'node:crypto';
/**
 * Many rows at once, straight into the database: tests of limits and long lists need hundreds or
 * thousands of tracks, entries, playlists or products, and making each through its route (uploading
 * audio for every track) would take minutes and test nothing the test is about. Each helper says
 * what rows it makes; tracks made here are removed when the test finishes.
 */
import { sql } from 'kysely';
import { onTestFinished } from 'vitest';
import type { TestServer } from './test-server.js';

/** `count` live, completed tracks of `creatorId` (ids in order, gone after the test): uploading thousands takes minutes. */
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

export interface NamedTrack {
  title: string;
  artist?: string | null;
  album?: string | null;
  /** Seconds (default 180). */
  duration?: number;
  isPublic?: boolean;
}

/** Live, completed tracks of `creatorId` with these names (ids in order, gone after the test): matching reads only names. */
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

/** The tracks appended to the playlist after those it holds, at once: adding thousands one call at a time takes minutes. */
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

/** `count` playlists of the user titled "Seeded <n>": reaching the per-user cap through the API takes as many calls. */
export async function seedPlaylists(server: TestServer, userId: string, count: number): Promise<void> {
  await sql`insert into playlists (user_id, title) select ${userId}, 'Seeded ' || g from generate_series(1, ${count}) g`.execute(
    server.riff.platform.scope.db,
  );
}

/**
 * `count` verified accounts that may act, written as rows (registering each through the API would cost
 * more than the tests that need many others to invite or list); their ids, in order.
 */
export async function seedVerifiedUsers(server: TestServer, count: number): Promise<string[]> {
  const tag = randomUUID().slice(0, 8);
  const { rows } = await sql<{ id: string }>`insert into users (email, username, slug, is_verified, email_verified_at)
    select 'seeded-' || ${tag} || '-' || n || '@example.test', 'seeded_' || ${tag} || '_' || n,
      'seeded-' || ${tag} || '-' || n, true, now()
    from generate_series(1, ${count}::int) n order by n returning id`.execute(server.riff.platform.scope.db);
  return rows.map((row) => row.id);
}

/** `count` draft packs of the seller's at 1.00 titled "Bulk <n>": the API creates 30 products a minute at most. */
export async function seedProducts(server: TestServer, sellerId: string, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, index) => ({
    seller_id: sellerId,
    title: `Bulk ${index}`,
    price_cents: 100,
    product_type: 'pack' as const,
  }));
  await server.riff.platform.scope.db.insertInto('products').values(rows).execute();
}

/**
 * One live, completed, public track of `creatorId` in `album`, written through `executor` (a
 * transaction the test holds open): tests of what two writers at the same moment do to the rows the
 * database keeps beside the tracks (an album's count) need the writes themselves, mid-transaction.
 */
export async function insertTrackRow(
  executor: Parameters<ReturnType<typeof sql>['execute']>[0],
  creatorId: string,
  title: string,
  album: string,
): Promise<void> {
  await sql`insert into tracks (id, creator_id, title, album, duration, file_size, format, md5, status, is_public)
    values (gen_random_uuid(), ${creatorId}, ${title}, ${album}, 60, 1000, 'mp3', 'test', 'completed', true)`.execute(
    executor,
  );
}

/**
 * `count` private items of gear of `userId` (ids in order): the per-user limit of 500 needs hundreds,
 * and private ones leave the per-model counts of discovery as they are (nothing public changes).
 */
export async function seedPrivateGear(server: TestServer, userId: string, count: number): Promise<string[]> {
  const result = await sql<{ id: string }>`
    insert into gear_items (user_id, category, brand, model, is_public, model_key, created_at)
    select ${userId}, 'accessory', 'Seeded', 'Cable ' || g, false, gear_model_key('Seeded', 'Cable ' || g),
      now() - interval '1 day' + g * interval '1 millisecond'
    from generate_series(1, ${count}) g
    returning id`.execute(server.riff.platform.scope.db);
  return result.rows.map((row) => row.id);
}

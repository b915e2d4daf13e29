import type { Track } from '@riff/contract';
import { sql } from 'kysely';
import type { TestServer } from '../support/test-server.js';
import type { TestUser } from '../support/factories.js';
import { expectStatus } from '../support/typed-api.js';

/** Sets the metadata recommendations and tags read (as the owner would, through the API). */
export async function describeTrack(
  owner: TestUser,
  track: Track,
  fields: {
    genres?: string[];
    tags?: string[];
    bpm?: number | null;
    musical_key?: string | null;
    title?: string;
    album?: string | null;
  },
) {
  return expectStatus(await owner.api.tracks.update({ params: { id: track.id }, body: fields }), 200).body.data.track;
}

/**
 * The favorites playlists as stored (the playlists routes come with their own issue): each user's
 * playlist flags and its tracks in position order. Only for asserting the one-truth invariant.
 */
export async function favoritesOf(server: TestServer, userId: string) {
  const db = server.riff.platform.scope.db;
  const playlists = await db.selectFrom('playlists').selectAll().where('user_id', '=', userId).execute();
  const tracks = await sql<{ track_id: string; position: number }>`
    select pt.track_id, pt.position from playlist_tracks pt join playlists p on p.id = pt.playlist_id
     where p.user_id = ${userId} and p.is_default_favorites order by pt.position`.execute(db);
  return { playlists, tracks: tracks.rows };
}

export { mp3WithCover } from '../support/audio.js';

import { PLAYLIST_TRACKS_PAGE_MAX, type Playlist } from '@riff/contract';
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

import type { Playlist, PlaylistCollaborator, PlaylistTrack, Profile, Track } from '@riff/contract';
import type { CollaboratorRow } from './collaborators.repository.js';
import type { PlaylistEntryRow, PlaylistRow, PlaylistView } from './playlists.repository.js';
import { withModerationState } from '../../platform/access/moderation.js';

/** The snapshot_id of a playlist: its version. The ETag is this, quoted. */
export const snapshotOf = (row: Pick<PlaylistRow, 'version'>): string => String(row.version);
export const etagOf = (row: Pick<PlaylistRow, 'version'>): string => `"${snapshotOf(row)}"`;

/**
 * A playlist in a list: track_count, never tracks or collaborators. is_following only for a
 * signed-in caller (`signedIn`), absent through a share link.
 */
export function toPlaylistSummaryDto(view: PlaylistView, signedIn: boolean): Playlist {
  return withModerationState(
    {
      id: view.id,
      user_id: view.user_id,
      title: view.title,
      description: view.description,
      cover_url: view.cover,
      is_public: view.is_public,
      is_default_favorites: view.is_default_favorites,
      is_editorial: view.is_editorial,
      follower_count: view.follower_count,
      track_count: view.track_count,
      snapshot_id: snapshotOf(view),
      ...(signedIn ? { is_following: view.is_following } : {}),
      created_at: view.created_at.toISOString(),
      updated_at: view.updated_at.toISOString(),
    },
    view,
  );
}

/** One playlist with a page of its tracks (already mapped for the caller) and its collaborators. */
export function toPlaylistDetailDto(
  view: PlaylistView,
  parts: { signedIn: boolean; tracks: PlaylistTrack[]; collaborators: PlaylistCollaborator[] },
): Playlist {
  return { ...toPlaylistSummaryDto(view, parts.signedIn), tracks: parts.tracks, collaborators: parts.collaborators };
}

/** An entry with its track as the caller sees it (the tracks area's mapper made `track`). */
export function toPlaylistTrackDto(playlistId: string, row: PlaylistEntryRow, track: Track): PlaylistTrack {
  return {
    id: row.entry_id,
    playlist_id: playlistId,
    track_id: row.id,
    added_by: row.entry_added_by,
    position: row.entry_position,
    added_at: row.entry_added_at.toISOString(),
    track,
  };
}

/** A collaborator with their profile as others see it; a profile gone with its account falls back to the bare id. */
export function toCollaboratorDto(row: CollaboratorRow, profile: Profile | undefined): PlaylistCollaborator {
  return {
    id: row.id,
    playlist_id: row.playlist_id,
    user_id: row.user_id,
    permission: row.permission,
    user: profile ?? { id: row.user_id, username: '', slug: '', avatar: null, is_public: false },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

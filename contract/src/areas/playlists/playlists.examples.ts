/** Examples of the playlists area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { track } from '../tracks/tracks.examples.js';
import { CREATED, EXPIRES, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';

export const PLAYLIST_ID = '9e1f3a5b-7c9d-4e2f-8a4b-6c8d0e2f4a6b';

export const OTHER_PLAYLIST_ID = '1a3c5e7f-9b2d-4f6a-8c0e-2b4d6f8a0c1e';

const SHARE_TOKEN = 'pL4yl1sTsh4r3T0k3nXq9Zr2Wm7Kc5Nb8Vd3Fg6Hj1A';

const playlistTrack = {
  id: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
  playlist_id: PLAYLIST_ID,
  track_id: TRACK_ID,
  added_by: USER_ID,
  position: 0,
  added_at: UPDATED,
  track,
};

const collaborator = {
  id: '4f6b8d0c-2e3a-4b7c-9d1e-3f5a7b9c1d2e',
  playlist_id: PLAYLIST_ID,
  user_id: OTHER_USER_ID,
  permission: 'write',
  user: { id: OTHER_USER_ID, username: 'theo.marsh', slug: 'theo-marsh', avatar: null, is_public: true },
  created_at: UPDATED,
  updated_at: UPDATED,
} as const;

export const playlistSummary = {
  id: PLAYLIST_ID,
  user_id: USER_ID,
  title: 'Late drives',
  description: 'Synthwave for the road home',
  cover_url: null,
  is_public: true,
  is_default_favorites: false,
  is_editorial: false,
  follower_count: 12,
  track_count: 1,
  snapshot_id: '8',
  is_following: false,
  created_at: CREATED,
  updated_at: UPDATED,
};

const playlist = { ...playlistSummary, tracks: [playlistTrack], collaborators: [collaborator] };

const playlistAnalytics = {
  follower_count: 12,
  track_count: 1,
  total_duration: 215,
  plays_from_playlist: 48,
  top_tracks: [{ track_id: TRACK_ID, plays: 48 }],
  followers_daily: Array.from({ length: 30 }, (_, index) => ({
    date: new Date(Date.UTC(2026, 10, 21) - (29 - index) * 86_400_000).toISOString().slice(0, 10),
    count: index === 29 ? 2 : index % 7 === 0 ? 1 : 0,
  })),
};

/** A playlist as the account export lists it. */
export const exportedPlaylist = {
  id: PLAYLIST_ID,
  title: 'Late drives',
  description: null,
  is_public: true,
  is_default_favorites: false,
  track_ids: [TRACK_ID],
  created_at: CREATED,
};

export const PLAYLISTS_EXAMPLES: Record<string, unknown> = {
  Playlist: playlist,
  PlaylistTrack: playlistTrack,
  PlaylistCollaborator: collaborator,
  PlaylistReply: { playlist },
  PlaylistPage: { playlists: [playlistSummary], pagination: onePage(1) },
  PlaylistChange: { message: 'Track added to the playlist', snapshot_id: '9' },
  PlaylistCollaboratorReply: { collaborator },
  PlaylistCollaboratorPage: { collaborators: [collaborator], pagination: onePage(1) },
  PlaylistShare: {
    token: SHARE_TOKEN,
    share_url: `http://127.0.0.1:8080/api/v1/playlists/shared/${SHARE_TOKEN}`,
    expires_at: EXPIRES,
  },
  CreatePlaylistRequest: { title: 'Late drives', description: 'Synthwave for the road home', is_public: true },
  UpdatePlaylistRequest: { title: 'Late drives (2026)', is_public: false },
  AddPlaylistTrackRequest: { track_id: TRACK_ID, position: 0 },
  ReorderTracksRequest: { track_ids: [TRACK_ID] },
  AddCollaboratorRequest: { user_id: OTHER_USER_ID, permission: 'write' },
  UpdateCollaboratorRequest: { permission: 'admin' },
  SharePlaylistRequest: { expires_in_days: 30 },
  DuplicatePlaylistRequest: { title: 'Late drives, my take' },
  ExportedPlaylist: exportedPlaylist,
  ExportedPlaylistCollaboration: { playlist_id: OTHER_PLAYLIST_ID, permission: 'write', since: UPDATED },
  ExportedPlaylistFollow: { playlist_id: OTHER_PLAYLIST_ID, since: UPDATED },
  ImportPlaylistRequest: {
    title: 'Road trip',
    format: 'm3u',
    content:
      '#EXTM3U\n#PLAYLIST:Road trip\n#EXTINF:215,Nova Lights - Late Drive\nhttps://riff.example.org/api/v1/tracks/' +
      TRACK_ID +
      '/stream\n',
  },
  UnmatchedPlaylistEntry: { line: 5, title: 'Jóga', artist: 'Björk' },
  PlaylistImportReply: {
    playlist: { ...playlistSummary, is_public: false, follower_count: 0 },
    matched: 1,
    unmatched: [{ line: 5, title: 'Jóga', artist: 'Björk' }],
  },
  PlaylistAnalytics: playlistAnalytics,
  PlaylistAnalyticsReply: { analytics: playlistAnalytics },
};

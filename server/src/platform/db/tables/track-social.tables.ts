import type { Generated } from 'kysely';
import type { PlaylistPermission, PlaySource, SharePlatform } from '@riff/contract';
import type { CreatedAt, Timestamp, UpdatedAt } from './column-types.js';

export interface PlaylistsTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  description: string | null;
  cover_url: string | null;
  is_public: Generated<boolean>;
  is_default_favorites: Generated<boolean>;
  is_editorial: Generated<boolean>;
  follower_count: Generated<number>;
  /** Goes up with every change of details or tracks: the snapshot_id. */
  version: Generated<number>;
  share_token_hash: string | null;
  share_expires_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PlaylistCollaboratorsTable {
  id: Generated<string>;
  playlist_id: string;
  user_id: string;
  permission: PlaylistPermission;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface PlaylistFollowersTable {
  playlist_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface PlaylistTracksTable {
  id: Generated<string>;
  playlist_id: string;
  track_id: string;
  added_by: string | null;
  position: number;
  added_at: CreatedAt;
}

export interface TrackRepostsTable {
  user_id: string;
  track_id: string;
  created_at: CreatedAt;
}

export interface TrackSharesTable {
  id: Generated<string>;
  track_id: string;
  user_id: string | null;
  platform: SharePlatform;
  created_at: CreatedAt;
}

export interface TrackPlayWindowsTable {
  track_id: string;
  listener: string;
  counted_at: Timestamp;
}

/** Counted anonymous plays of a track from one address (hashed) since period_start. */
export interface TrackPlayAddressWindowsTable {
  track_id: string;
  address: string;
  period_start: Timestamp;
  plays: number;
}

export interface TrackPlaysTable {
  id: Generated<string>;
  track_id: string;
  user_id: string | null;
  listener: string;
  source: PlaySource;
  playlist_id: string | null;
  duration_listened: number;
  completed: boolean;
  counted: boolean;
  played_at: CreatedAt;
}

export interface TrackDownloadsTable {
  id: Generated<string>;
  track_id: string;
  downloaded_at: CreatedAt;
}

export interface ListeningHistoryTable {
  id: Generated<string>;
  user_id: string;
  track_id: string;
  source: PlaySource;
  duration_listened: number;
  played_at: CreatedAt;
}

/** Playlists (created with likes, extended by the playlists area), reposts, shares, plays and history. */
export interface TrackSocialTables {
  playlists: PlaylistsTable;
  playlist_tracks: PlaylistTracksTable;
  playlist_collaborators: PlaylistCollaboratorsTable;
  playlist_followers: PlaylistFollowersTable;
  track_reposts: TrackRepostsTable;
  track_shares: TrackSharesTable;
  track_play_windows: TrackPlayWindowsTable;
  track_play_address_windows: TrackPlayAddressWindowsTable;
  track_plays: TrackPlaysTable;
  listening_history: ListeningHistoryTable;
  track_downloads: TrackDownloadsTable;
}

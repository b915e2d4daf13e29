import type { PlaylistPermission } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';
import type { ModerationColumns } from '../../platform/access/moderation.js';

export interface PlaylistsTable extends ModerationColumns {
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

/** The playlists area's tables: playlists (the favorites playlist holds a user's likes), their tracks, collaborators and followers. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    playlists: PlaylistsTable;
    playlist_tracks: PlaylistTracksTable;
    playlist_collaborators: PlaylistCollaboratorsTable;
    playlist_followers: PlaylistFollowersTable;
  }
}

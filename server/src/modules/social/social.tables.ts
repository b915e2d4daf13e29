import type { PlaySource, SharePlatform } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

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

export interface ListeningHistoryTable {
  id: Generated<string>;
  user_id: string;
  track_id: string;
  source: PlaySource;
  duration_listened: number;
  played_at: CreatedAt;
}

/** The social area's tables: reposts, shares, counted plays and listening history. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    track_reposts: TrackRepostsTable;
    track_shares: TrackSharesTable;
    track_play_windows: TrackPlayWindowsTable;
    track_play_address_windows: TrackPlayAddressWindowsTable;
    track_plays: TrackPlaysTable;
    listening_history: ListeningHistoryTable;
  }
}

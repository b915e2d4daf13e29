import type { StreamStatus, TrackFormat, TrackStatus } from '@riff/contract';
import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Json, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';
import type { ModerationColumns } from '../../platform/access/moderation.js';

export interface TracksTable extends ModerationColumns {
  id: string;
  creator_id: string;
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  genres: Json<string[]>;
  tags: Json<string[]>;
  year: number | null;
  bpm: number | null;
  musical_key: string | null;
  is_public: Generated<boolean>;
  duration: number;
  bitrate: number | null;
  sample_rate: number | null;
  file_size: number;
  format: TrackFormat;
  file_key: string | null;
  md5: string;
  original_filename: string | null;
  status: TrackStatus;
  status_message: string | null;
  stream_status: Generated<StreamStatus>;
  stream_manifest_url: string | null;
  cover_art_path: string | null;
  waveform_path: string | null;
  /** Track social's secret link of a private track: its SHA-256 (hex) and the nonce it is derived from. */
  share_secret_hash: Generated<string | null>;
  share_secret_nonce: Generated<string | null>;
  play_count: Generated<number>;
  like_count: Generated<number>;
  /** Its album (stored, computed by PostgreSQL from creator_id, album and id: riff_album_id). */
  album_id: Generated<string>;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TrackLyricsTable {
  track_id: string;
  content: string;
  is_synced: boolean;
  updated_at: UpdatedAt;
}

export interface UploadSessionsTable {
  id: string;
  user_id: string;
  filename: string;
  total_chunks: number;
  total_size: number;
  state: Generated<'active' | 'assembling'>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UploadChunksTable {
  upload_id: string;
  chunk_number: number;
  size: number;
  created_at: CreatedAt;
}

export interface TrackDownloadsTable {
  id: Generated<string>;
  track_id: string;
  downloaded_at: CreatedAt;
}

/** An object being written to storage, recorded first so that a crash leaves a trace to clean. */
export interface StorageIntentsTable {
  key: string;
  created_at: CreatedAt;
}

/**
 * One album of the published tracks (public, ready, not moderated), kept in step with tracks by the
 * database's triggers (migration 0032): what a list of albums shows and sorts by, an index away.
 */
export interface TrackAlbumsTable {
  album_id: string;
  creator_id: string;
  /** Its first track's album tag as written, or a single's title. */
  name: string;
  song_count: number;
  /** Seconds, the sum of its tracks'. */
  duration: number;
  /** Its first track's publication. */
  created: Timestamp;
  /** The latest year of its tracks. */
  year: number | null;
  /** The first of its tracks' genres by name. */
  genre: string | null;
  /** A fixed number in [0, 1) drawn from the id, for random picks. */
  shuffle: number;
}

/** The tracks area's tables: tracks, their albums, lyrics, chunked upload sessions and counted downloads, storage intents. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    tracks: TracksTable;
    track_albums: TrackAlbumsTable;
    track_lyrics: TrackLyricsTable;
    upload_sessions: UploadSessionsTable;
    upload_chunks: UploadChunksTable;
    track_downloads: TrackDownloadsTable;
    storage_intents: StorageIntentsTable;
  }
}

export type TrackRow = Selectable<TracksTable>;
export type TrackAlbumRow = Selectable<TrackAlbumsTable>;
export type { TrackFormat, TrackStatus };

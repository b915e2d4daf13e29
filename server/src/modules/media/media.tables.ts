import type { MediaJobState, MediaTranscoder, TrackFormat } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, UpdatedAt } from '../../platform/db/column-types.js';

/** Every audio a track has had; exactly one is current (the one tracks.file_key names). */
export interface TrackVersionsTable {
  id: string;
  track_id: string;
  version_number: number;
  file_key: string;
  format: TrackFormat;
  duration: number;
  bitrate: number | null;
  sample_rate: number | null;
  file_size: number;
  md5: string;
  original_filename: string | null;
  is_current: Generated<boolean>;
  created_at: CreatedAt;
}

/** The files derived from a track's current audio, and where the jobs making them are. */
export interface TrackMediaTable {
  track_id: string;
  run_id: string;
  version_id: string | null;
  transcoder: Generated<MediaTranscoder>;
  hls_state: Generated<MediaJobState>;
  hls_progress: Generated<number>;
  /** The published HLS prefix (ending in `/`): master.m3u8 and one folder per variant. */
  hls_prefix: string | null;
  waveform_state: Generated<MediaJobState>;
  waveform_key: string | null;
  cover_key: string | null;
  cover_content_type: string | null;
  /** Why the last run failed, in words the owner understands. */
  message: string | null;
  updated_at: UpdatedAt;
}

/** A user's avatar: the 512 square and the 128 thumbnail, re-encoded. */
export interface UserAvatarsTable {
  user_id: string;
  large_key: string;
  small_key: string;
  content_type: string;
  updated_at: UpdatedAt;
}

/** The media pipeline's tables: audio versions, derived files and their jobs' state, avatars. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    track_versions: TrackVersionsTable;
    track_media: TrackMediaTable;
    user_avatars: UserAvatarsTable;
  }
}

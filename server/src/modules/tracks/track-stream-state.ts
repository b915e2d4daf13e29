import type { ModerationStatus, StreamStatus } from '@riff/contract';
import type { TrackStatus } from './tracks.tables.js';
import type { StreamStateRepository } from './stream-state.repository.js';

/** The part of a track the media pipeline reads: who owns it, who may see it, its current audio, its stream. */
export interface TrackStreamRow {
  id: string;
  creator_id: string;
  is_public: boolean;
  file_key: string | null;
  duration: number;
  status: TrackStatus;
  stream_status: StreamStatus;
  status_message: string | null;
  deleted_at: Date | null;
  share_secret_hash: string | null;
  moderation_status: ModerationStatus;
}

/** The columns of a track that the media pipeline keeps (it is their only writer). */
export interface StreamColumns {
  stream_status?: StreamStatus;
  status_message?: string | null;
  stream_manifest_url?: string | null;
  waveform_path?: string | null;
  cover_art_path?: string | null;
}

/**
 * What the media area may read and set of a track: its stream's state (HLS, waveform, cover) as the
 * pipeline advances, and the few columns that decide who may read its media. Both run in the
 * caller's unit of work (DbScope), so a run's state and the track's columns change together.
 */
export interface TrackStreamState {
  /** The track, deleted or not (the caller tells a deleted one by deleted_at); undefined when missing. */
  find(trackId: string): Promise<TrackStreamRow | undefined>;
  /** Sets these stream columns (and updated_at). */
  set(trackId: string, columns: StreamColumns): Promise<void>;
}

export function createTrackStreamState(repository: StreamStateRepository): TrackStreamState {
  return {
    find: (trackId) => repository.find(trackId),
    set: (trackId, columns) => repository.set(trackId, columns),
  };
}

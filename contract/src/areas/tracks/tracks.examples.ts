/** Examples of the tracks area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, EXPIRES, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';
import type { Track } from './tracks.schemas.js';

const UPLOAD_ID = 'c3a1e5f7-2b4d-4c6e-8a0b-1d3f5e7a9c2b';

export const track: Track = {
  id: TRACK_ID,
  creator_id: USER_ID,
  title: 'Night Drive',
  artist: 'Mira Lane',
  album: 'Neon Coast',
  genre: 'synthwave',
  genres: ['synthwave', 'electronic'],
  year: 2026,
  bpm: 118,
  musical_key: 'F#m',
  tags: ['night', 'retro'],
  is_public: true,
  duration: 214,
  bitrate: 320,
  sample_rate: 44100,
  file_size: 8_563_200,
  format: 'mp3',
  file_id: TRACK_ID,
  file_path: `/api/v1/tracks/${TRACK_ID}/stream`,
  cover_art_path: null,
  waveform_path: null,
  waveform_url: null,
  status: 'completed',
  status_message: null,
  stream_status: 'ready',
  stream_manifest_url: null,
  play_count: 128,
  like_count: 9,
  created_at: CREATED,
  updated_at: UPDATED,
};

export const OTHER_TRACK_ID = 'a7b8c9d0-e1f2-4a3b-8c4d-5e6f7a8b9c0d';

export const otherTrack: Track = {
  ...track,
  id: OTHER_TRACK_ID,
  creator_id: OTHER_USER_ID,
  title: 'Harbour Lights',
  artist: 'Theo Marsh',
  album: null,
  file_id: OTHER_TRACK_ID,
  file_path: `/api/v1/tracks/${OTHER_TRACK_ID}/stream`,
  play_count: 41,
  like_count: 3,
};

export const lyrics = {
  track_id: TRACK_ID,
  content: '[00:12.00]Headlights on the empty road\n[00:17.50]Radio low, the city glows',
  is_synced: true,
  lines: [
    { time_ms: 12_000, text: 'Headlights on the empty road' },
    { time_ms: 17_500, text: 'Radio low, the city glows' },
  ],
  updated_at: UPDATED,
};

const quota = {
  used_bytes: 8_563_200,
  cloud_bytes: 0,
  reserved_bytes: 4_194_304,
  limit_bytes: 524_288_000,
  remaining_bytes: 511_530_496,
  track_count: 1,
};

export const TRACKS_EXAMPLES: Record<string, unknown> = {
  Track: track,
  TrackReply: { track },
  TrackPage: { tracks: [track], pagination: onePage(1) },
  UploadTrackRequest: { file: 'night-drive.mp3', title: 'Night Drive', is_public: 'true' },
  ReplaceTrackFileRequest: { file: 'night-drive-remaster.flac' },
  UpdateTrackRequest: {
    title: 'Night Drive (Extended)',
    genres: ['synthwave'],
    tags: ['night', 'retro'],
    bpm: 118,
    is_public: true,
  },
  InitiateChunkedUploadRequest: { filename: 'night-drive.wav', total_chunks: 8, total_size: 37_748_736 },
  ChunkedUploadSession: {
    upload_id: UPLOAD_ID,
    message: 'Upload session started',
    chunk_size_limit: 5_242_880,
    expires_at: EXPIRES,
  },
  UploadChunkRequest: {
    upload_id: UPLOAD_ID,
    chunk_number: 0,
    total_chunks: 8,
    total_size: 37_748_736,
    filename: 'night-drive.wav',
    chunk: 'night-drive.wav.part0',
  },
  ChunkReceived: {
    upload_id: UPLOAD_ID,
    chunk_number: 0,
    received_chunks: 1,
    progress: 12.5,
    message: 'Chunk 0 received',
  },
  CompleteChunkedUploadRequest: { upload_id: UPLOAD_ID },
  ChunkedUploadComplete: { track, md5: '9e107d9d372bb6826bd81d3542a419d6', message: 'Upload complete' },
  ChunkedUploadState: {
    upload_id: UPLOAD_ID,
    chunks_received: 3,
    received_chunk_numbers: [0, 1, 2],
    total_chunks: 8,
    total_size: 37_748_736,
    expires_at: EXPIRES,
  },
  Quota: quota,
  QuotaReply: { quota },
  BatchDeleteRequest: { track_ids: [TRACK_ID, 'not-a-track-id'] },
  BatchDeleteResult: {
    deleted: [TRACK_ID],
    failed: [{ id: 'not-a-track-id', code: 'INVALID_ID', message: 'Not a track id' }],
  },
  BatchFailure: { id: 'not-a-track-id', code: 'INVALID_ID', message: 'Not a track id' },
  BatchUpdateRequest: { track_ids: [TRACK_ID], updates: { is_public: false } },
  BatchUpdateResult: { updated: [TRACK_ID], failed: [] },
  Lyrics: lyrics,
  LyricsReply: { lyrics },
  UpdateLyricsRequest: { content: lyrics.content },
};

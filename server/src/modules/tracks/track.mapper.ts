import type { Track } from '@riff/contract';
import { API_PREFIX } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackRow } from './tracks.tables.js';
import { canSeeTrackInsights } from './tracks.policy.js';
import { withModerationState } from '../../platform/access/moderation.js';

/**
 * play_count and like_count only for the owner (and admins). `publicBaseUrl` makes waveform_url
 * absolute (null without it, or before the waveform is ready).
 */
export function toTrackDto(row: TrackRow, actor: Actor, publicBaseUrl?: string): Track {
  const track: Track = {
    id: row.id,
    creator_id: row.creator_id,
    title: row.title,
    artist: row.artist,
    album: row.album,
    genre: row.genre,
    genres: row.genres ?? [],
    year: row.year,
    bpm: row.bpm,
    musical_key: row.musical_key,
    tags: row.tags ?? [],
    is_public: row.is_public,
    duration: row.duration,
    bitrate: row.bitrate,
    sample_rate: row.sample_rate,
    file_size: Number(row.file_size),
    format: row.format,
    file_id: row.file_key ? row.id : null,
    file_path: row.file_key ? `${API_PREFIX}/tracks/${row.id}/stream` : null,
    cover_art_path: row.cover_art_path,
    waveform_path: row.waveform_path,
    waveform_url: row.waveform_path && publicBaseUrl !== undefined ? `${publicBaseUrl}${row.waveform_path}` : null,
    status: row.status,
    status_message: row.status_message,
    stream_status: row.stream_status,
    stream_manifest_url: row.stream_manifest_url,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  // set after, not spread in: one shape for every track of a page keeps this and JSON.stringify on their fast paths
  if (canSeeTrackInsights(actor, row)) {
    track.play_count = row.play_count;
    track.like_count = row.like_count;
  }
  return withModerationState(track, row);
}

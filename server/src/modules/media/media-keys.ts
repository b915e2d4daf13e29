import type { AvatarSize } from '@riff/contract';

/**
 * Where the pipeline's files live in storage. Each run of a track's pipeline writes under its own
 * prefix, so a run never overwrites files that are being served; the previous run's go once the
 * new ones are published.
 */
export const mediaKeys = {
  /** Everything derived from a track's audio, every run. */
  track: (trackId: string) => `media/${trackId}/`,
  run: (trackId: string, runId: string) => `media/${trackId}/${runId}/`,
  hls: (trackId: string, runId: string) => `media/${trackId}/${runId}/hls/`,
  waveform: (trackId: string, runId: string) => `media/${trackId}/${runId}/waveform.json`,
  cover: (trackId: string, runId: string) => `media/${trackId}/${runId}/cover`,
  avatar: (userId: string, imageId: string, size: AvatarSize) => `avatars/${userId}/${imageId}/${size}`,
};

/** The URL paths of a track's media and a user's avatar, as the API serves them. */
export const mediaPaths = {
  master: (trackId: string) => `/api/v1/tracks/${trackId}/hls/master.m3u8`,
  waveform: (trackId: string) => `/api/v1/tracks/${trackId}/waveform`,
  cover: (trackId: string) => `/api/v1/tracks/${trackId}/cover`,
  avatar: (userId: string) => `/api/v1/users/${userId}/avatar`,
};

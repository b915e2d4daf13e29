/**
 * The media pipeline's enums, declared once: the server's types and the migration's CHECK
 * constraints derive from these. The routes (status, HLS, waveform, cover, versions, avatar,
 * callback) join in media.contract.ts once the server serves them.
 */
export const HLS_VARIANTS = ['160k', '64k'] as const;
export type HlsVariant = (typeof HLS_VARIANTS)[number];

/** The sizes of an avatar: the 512×512 square and the 128×128 thumbnail. */
export const AVATAR_SIZES = [512, 128] as const;
export type AvatarSize = (typeof AVATAR_SIZES)[number];

/** The two jobs of the media pipeline and where each one is. */
export const MEDIA_JOB_KINDS = ['hls', 'waveform'] as const;
export type MediaJobKind = (typeof MEDIA_JOB_KINDS)[number];
export const MEDIA_JOB_STATES = ['pending', 'processing', 'ready', 'error'] as const;
export type MediaJobState = (typeof MEDIA_JOB_STATES)[number];

/** Who makes the HLS rendition: ffmpeg in-process (default) or an external transcoder that calls back. */
export const MEDIA_TRANSCODERS = ['ffmpeg', 'external'] as const;
export type MediaTranscoder = (typeof MEDIA_TRANSCODERS)[number];

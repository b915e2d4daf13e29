import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { STREAM_STATUSES, TRACK_FORMATS, TRACK_STATUSES } from '../tracks/tracks.schemas.js';

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

// Replies and bodies of the media routes (phase 2 adds the routes; until a route refers to them
// they stay out of openapi.json, which keeps only referenced schemas).

export const MediaStatusSchema = named(
  'MediaStatus',
  z.object({
    progress: z
      .number()
      .int()
      .min(0)
      .max(100)
      .describe('Over both jobs; 100 exactly when stream_status is ready and the waveform exists'),
    status: z.enum(TRACK_STATUSES),
    stream_status: z.enum(STREAM_STATUSES),
    status_message: z.string().nullable(),
    waveform_ready: z.boolean(),
  }),
);
export const MediaStatusEnvelope = envelope(MediaStatusSchema);

export const TrackVersionSchema = named(
  'TrackVersion',
  z.object({
    id: UuidSchema,
    version_number: z.number().int().min(1),
    format: z.enum(TRACK_FORMATS),
    duration: z.number().int().describe('Seconds'),
    file_size: z.number().int().describe('Bytes'),
    md5: z.string(),
    created_at: TimestampSchema,
    is_current: z.boolean(),
  }),
);
export const TrackVersionsEnvelope = envelope(
  named('TrackVersionsReply', z.object({ versions: z.array(TrackVersionSchema) })),
);

/** BBC audiowaveform JSON, version 2 (served directly, not enveloped). */
export const WaveformSchema = named(
  'Waveform',
  z.object({
    version: z.literal(2),
    channels: z.literal(1),
    sample_rate: z.number().int(),
    samples_per_pixel: z.number().int(),
    bits: z.literal(8),
    length: z.number().int().max(1800).describe('Number of min/max pairs'),
    data: z.array(z.number().int().min(-128).max(127)).describe('min, max, min, max, …'),
  }),
);

export const HlsCallbackRequestSchema = named(
  'HlsCallbackRequest',
  z.object({
    status: z.enum(['ready', 'error']),
    message: z.string().max(500).optional().describe('Why it failed, shown to the owner'),
  }),
);

export const HlsVariantParamsSchema = z.object({
  id: UuidSchema,
  variant: z.enum(HLS_VARIANTS),
  file: z.string().regex(/^(index\.m3u8|init\.mp4|segment-\d{5}\.m4s)$/, 'index.m3u8, init.mp4 or a segment file'),
});

export const HlsSegmentParamsSchema = z.object({
  id: UuidSchema,
  variant: z.enum(HLS_VARIANTS),
  file: z.string().regex(/^(init\.mp4|segment-\d{5}\.m4s)$/, 'init.mp4 or a segment file'),
});

export const AvatarQuerySchema = z.object({
  size: z
    .enum(['512', '128'])
    .default('512')
    .transform((size) => Number(size) as AvatarSize),
});

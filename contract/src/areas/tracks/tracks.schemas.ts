import { z } from 'zod';
import {
  PaginationQuerySchema,
  TimestampSchema,
  UuidSchema,
  coercedInt,
  pageOf,
  queryInt,
} from '../../common/common.schemas.js';
import { ErrorCodeSchema, envelope } from '../../common/envelope.schemas.js';
import { named, withOpenApi } from '../../common/openapi-meta.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';

export const TRACK_STATUSES = ['uploading', 'processing', 'completed', 'failed'] as const;
export const STREAM_STATUSES = ['pending', 'processing', 'ready', 'error'] as const;
export const TRACK_FORMATS = ['mp3', 'wav', 'flac', 'ogg'] as const;
export const TRACK_SORT_FIELDS = ['created_at', 'title', 'play_count'] as const;
export type TrackStatus = (typeof TRACK_STATUSES)[number];
export type StreamStatus = (typeof STREAM_STATUSES)[number];
export type TrackFormat = (typeof TRACK_FORMATS)[number];
export type TrackSortField = (typeof TRACK_SORT_FIELDS)[number];
export const BATCH_MAX = 100;

/** play_count and like_count are omitted for callers who do not own the track. */
export const TrackSchema = named(
  'Track',
  z.object({
    id: UuidSchema,
    creator_id: UuidSchema,
    title: z.string(),
    artist: z.string().nullable(),
    album: z.string().nullable(),
    genre: z.string().nullable(),
    genres: z.array(z.string()),
    year: z.number().int().nullable(),
    bpm: z.number().int().nullable(),
    musical_key: z.string().nullable(),
    tags: z.array(z.string()),
    is_public: z.boolean(),
    duration: z.number().int().describe('Seconds'),
    bitrate: z.number().int().nullable().describe('kbps'),
    sample_rate: z.number().int().nullable().describe('Hz'),
    file_size: z.number().int().describe('Bytes'),
    format: z.enum(TRACK_FORMATS),
    file_id: z.string().nullable(),
    file_path: z.string().nullable().describe('Path of the stream operation for this track'),
    cover_art_path: z.string().nullable(),
    waveform_path: z.string().nullable(),
    waveform_url: z.string().nullable(),
    status: z.enum(TRACK_STATUSES),
    status_message: z.string().nullable(),
    stream_status: z.enum(STREAM_STATUSES),
    stream_manifest_url: z.string().nullable(),
    play_count: z.number().int().optional(),
    like_count: z.number().int().optional(),
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Track = z.infer<typeof TrackSchema>;

const GenreSlug = z
  .string()
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a taxonomy slug such as hip-hop')
  .max(50);

export const UpdateTrackRequestSchema = named(
  'UpdateTrackRequest',
  z.object({
    title: z.string().trim().min(1).max(255).optional(),
    artist: z.string().max(255).nullable().optional(),
    album: z.string().max(255).nullable().optional(),
    genre: z.string().max(100).nullable().optional().describe('Legacy single value'),
    genres: z.array(GenreSlug).max(3).optional(),
    tags: z.array(z.string().trim().min(1).max(30)).max(10).optional(),
    year: z.number().int().min(1900).max(2100).nullable().optional(),
    bpm: z.number().int().min(0).max(300).nullable().optional(),
    musical_key: z.string().max(10).nullable().optional(),
    is_public: z.boolean().optional(),
  }),
);
export type UpdateTrackRequest = z.infer<typeof UpdateTrackRequestSchema>;

/** The bytes of a binary reply: a stream on the server, read by the client as a Blob. */
export const binaryField = (description: string) =>
  withOpenApi(z.any(), { type: 'string', format: 'binary', description });

/**
 * A file part of a multipart request: a Blob (or File). Typed only: the server streams file parts
 * past the schema, so nothing is checked here at run time.
 */
export const fileField = (description: string) =>
  withOpenApi(z.any() as unknown as z.ZodType<Blob, z.ZodAnyDef, Blob>, {
    type: 'string',
    format: 'binary',
    description,
  });

export const QuotaSchema = named(
  'Quota',
  z.object({
    used_bytes: z.number().int().describe('Tracks’ originals plus cloud_bytes'),
    cloud_bytes: z.number().int().describe('Cloud files, their kept versions and the trash'),
    reserved_bytes: z.number().int().describe('Space held by open chunked uploads (their declared total_size)'),
    limit_bytes: z.number().int(),
    remaining_bytes: z.number().int().describe('limit_bytes less used_bytes and reserved_bytes'),
    track_count: z.number().int(),
  }),
);

export const LyricsSchema = named(
  'Lyrics',
  z.object({
    track_id: UuidSchema,
    content: z.string(),
    is_synced: z.boolean().describe('True when the content is LRC with timestamps'),
    lines: z
      .array(z.object({ time_ms: z.number().int(), text: z.string() }))
      .nullable()
      .describe('Timed lines of synced (LRC) lyrics, in order; null for plain text'),
    updated_at: TimestampSchema,
  }),
);

export const BatchFailureSchema = named(
  'BatchFailure',
  z.object({ id: z.string(), code: ErrorCodeSchema, message: z.string() }),
);
export const TrackIds = z.array(z.string().max(100)).min(1).max(BATCH_MAX, `at most ${BATCH_MAX} ids per batch`);

export const TRACK_SEARCH_SORTS = ['relevance', 'newest', 'popular'] as const;

/** GET /tracks/search: the search engine with the catalogue's filters. */
export const TrackSearchQuerySchema = PaginationQuerySchema.extend({
  q: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .describe(
      'Words of the title, artist or album (accents and case ignored, typos tolerated); without q, filters alone',
    ),
  genre: z.string().trim().min(1).max(100).optional().describe('The genre or one of the genres, case ignored'),
  bpm_min: queryInt(0, 300).optional(),
  bpm_max: queryInt(0, 300).optional(),
  musical_key: z
    .string()
    .trim()
    .min(1)
    .max(10)
    .optional()
    .describe('As stored on the track, case ignored (e.g. "C#m")'),
  duration_min: z.coerce.number().min(0).max(86_400).optional().describe('Seconds'),
  duration_max: z.coerce.number().min(0).max(86_400).optional().describe('Seconds'),
  sort: z
    .enum(TRACK_SEARCH_SORTS)
    .default('relevance')
    .describe('relevance (newest without q), newest, or popular (play_count)'),
});
export type TrackSearchQuery = z.infer<typeof TrackSearchQuerySchema>;

/** A page of tracks, as every track list answers it. */
export const TrackPageSchema = named('TrackPage', pageOf('tracks', TrackSchema));

export const TrackEnvelope = envelope(named('TrackReply', z.object({ track: TrackSchema })));

export const ChunkFields = {
  upload_id: UuidSchema,
  chunk_number: coercedInt(
    z.coerce.number().int().min(0).describe('Zero-based: the first chunk is 0, the last total_chunks - 1'),
  ),
  total_chunks: z.coerce.number().int().min(1),
  total_size: z.coerce.number().int().min(1),
  filename: z.string().min(1).max(255),
};

export const StreamHeadersSchema = z.object({
  range: z.string().max(200).optional().describe('bytes=start-end (one range)'),
  'if-none-match': z.string().max(200).optional(),
  'if-range': z.string().max(200).optional(),
});

export const LyricsEnvelope = envelope(named('LyricsReply', z.object({ lyrics: LyricsSchema.nullable() })));

/** `?secret=`: a private track's secret link (from POST /tracks/{id}/share) opens that one track to anyone holding it. */
export const SecretField = z
  .string()
  .max(200)
  .optional()
  .describe('Secret link token of a private track (from POST /tracks/{id}/share)');

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema, TimestampSchema, UserIdOrMeSchema, UuidSchema, coercedInt, pageOf } from '../common/common.schemas.js';
import { ErrorCodeSchema, envelope, errors } from '../common/envelope.schemas.js';
import { named, withOpenApi } from '../common/openapi-meta.js';
import { optionalAuth, streamRoute, userRoute } from '../common/route-meta.js';

const c = initContract();

export const TRACK_STATUSES = ['uploading', 'processing', 'completed', 'failed'] as const;
export const STREAM_STATUSES = ['pending', 'processing', 'ready', 'error'] as const;
export const TRACK_FORMATS = ['mp3', 'wav', 'flac', 'ogg'] as const;
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
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Track = z.infer<typeof TrackSchema>;

const GenreSlug = z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a taxonomy slug such as hip-hop').max(50);

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

const binary = (description: string) => withOpenApi(z.any(), { type: 'string', format: 'binary', description });

export const QuotaSchema = named(
  'Quota',
  z.object({
    used_bytes: z.number().int(),
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

const BatchFailureSchema = named('BatchFailure', z.object({ id: z.string(), code: ErrorCodeSchema, message: z.string() }));
const TrackIds = z.array(z.string().max(100)).min(1).max(BATCH_MAX, `at most ${BATCH_MAX} ids per batch`);

const TrackEnvelope = envelope(named('TrackReply', z.object({ track: TrackSchema })));

const ChunkFields = {
  upload_id: UuidSchema,
  chunk_number: coercedInt(z.coerce.number().int().min(0).describe('Zero-based: the first chunk is 0, the last total_chunks - 1')),
  total_chunks: z.coerce.number().int().min(1),
  total_size: z.coerce.number().int().min(1),
  filename: z.string().min(1).max(255),
};

const audioResponse = c.otherResponse({ contentType: 'audio/*', body: binary('The audio bytes') });

const streamResponses = {
  200: audioResponse,
  206: audioResponse,
  302: c.noBody(),
  304: c.noBody(),
  ...errors(400, 401, 403, 404, 416),
} as const;

const streamHeaders = z.object({
  range: z.string().max(200).optional().describe('bytes=start-end (one range)'),
  'if-none-match': z.string().max(200).optional(),
  'if-range': z.string().max(200).optional(),
});

export const tracksContract = c.router({
  upload: {
    method: 'POST',
    path: '/tracks',
    summary: 'Upload a track',
    description:
      'multipart/form-data with the audio in field `file` (MP3, WAV, FLAC or OGG, recognised by its content). Streamed to ' +
      'storage; metadata is read from the file. Optional text fields, before or after the file: title (at most 255 characters), ' +
      'is_public (exactly `true` or `false`). Over the size limit: ' +
      '413 PAYLOAD_TOO_LARGE; over the quota: 403 QUOTA_EXCEEDED; not audio: 400 INVALID_AUDIO.',
    metadata: userRoute,
    contentType: 'multipart/form-data',
    body: named(
      'UploadTrackRequest',
      z.object({
        file: binary('The audio file'),
        title: z.string().max(255).optional(),
        is_public: z.enum(['true', 'false']).optional(),
      }),
    ).optional(),
    responses: { 201: TrackEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  list: {
    method: 'GET',
    path: '/tracks',
    summary: 'List tracks',
    description: 'Public tracks, plus the caller’s own private ones.',
    metadata: optionalAuth,
    query: PaginationQuerySchema.extend({
      q: z.string().trim().min(1).max(100).optional().describe('Matches title, artist and album'),
      genre: z.string().max(100).optional(),
      creator_id: UuidSchema.optional(),
      sort: z.enum(['created_at', 'title', 'play_count']).default('created_at'),
      order: z.enum(['asc', 'desc']).default('desc'),
    }),
    responses: { 200: envelope(named('TrackPage', pageOf('tracks', TrackSchema))), ...errors(400, 401, 403) },
  },
  initiate: {
    method: 'POST',
    path: '/tracks/initiate',
    summary: 'Start a chunked upload',
    description:
      'Creates a resumable session (kept in the database; idle sessions expire after 24 hours). Chunks are numbered from 0. ' +
      'The session reserves total_size of the quota until it completes, is cancelled or expires. At most 20 sessions may be ' +
      'open at once: the 21st is 400 LIMIT_REACHED.',
    metadata: userRoute,
    body: named(
      'InitiateChunkedUploadRequest',
      z.object({
        filename: z.string().min(1).max(255),
        total_chunks: z.number().int().min(1).max(10_000),
        total_size: z.number().int().min(1),
      }),
    ),
    responses: {
      200: envelope(
        named(
          'ChunkedUploadSession',
          z.object({
            upload_id: UuidSchema,
            message: z.string(),
            chunk_size_limit: z.number().int().describe('Largest chunk accepted, in bytes'),
            expires_at: TimestampSchema.describe('When the session expires if no chunk arrives'),
          }),
        ),
      ),
      ...errors(400, 401, 403, 413, 415),
    },
  },
  chunk: {
    method: 'POST',
    path: '/tracks/chunk',
    summary: 'Send one chunk',
    description:
      'multipart/form-data: the text fields upload_id, chunk_number (from 0), total_chunks, total_size and filename (numbers ' +
      'in plain digits), and the file part `chunk`, in any order. Re-sending a chunk number replaces it.',
    metadata: userRoute,
    contentType: 'multipart/form-data',
    body: named('UploadChunkRequest', z.object({ ...ChunkFields, chunk: binary('The chunk bytes') })).optional(),
    responses: {
      200: envelope(
        named(
          'ChunkReceived',
          z.object({
            upload_id: UuidSchema,
            chunk_number: z.number().int(),
            received_chunks: z.number().int(),
            progress: z.number().min(0).max(100).describe('Percent of chunks received'),
            message: z.string(),
          }),
        ),
      ),
      ...errors(400, 401, 403, 404, 409, 413, 415),
    },
  },
  complete: {
    method: 'POST',
    path: '/tracks/complete',
    summary: 'Finish a chunked upload',
    description:
      'Assembles the chunks by streaming, checks total_size, and creates the track. A missing chunk or a size mismatch is 400 ' +
      'and the session stays resumable.',
    metadata: userRoute,
    body: named('CompleteChunkedUploadRequest', z.object({ upload_id: UuidSchema })),
    responses: {
      201: envelope(named('ChunkedUploadComplete', z.object({ track: TrackSchema, md5: z.string(), message: z.string() }))),
      ...errors(400, 401, 403, 404, 409, 413, 415),
    },
  },
  resume: {
    method: 'GET',
    path: '/tracks/resume/:uploadId',
    summary: 'Where a chunked upload stands',
    metadata: userRoute,
    pathParams: z.object({ uploadId: UuidSchema }),
    responses: {
      200: envelope(
        named(
          'ChunkedUploadState',
          z.object({
            upload_id: UuidSchema,
            chunks_received: z.number().int(),
            received_chunk_numbers: z.array(z.number().int()),
            total_chunks: z.number().int(),
            total_size: z.number().int(),
            expires_at: TimestampSchema,
          }),
        ),
      ),
      ...errors(400, 401, 403, 404),
    },
  },
  cancel: {
    method: 'DELETE',
    path: '/tracks/resume/:uploadId',
    summary: 'Cancel a chunked upload',
    description: 'The session’s owner only (others 404). Removes the chunks received and frees the reserved quota. 409 while it is being completed.',
    metadata: userRoute,
    pathParams: z.object({ uploadId: UuidSchema }),
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404, 409) },
  },
  quota: {
    method: 'GET',
    path: '/tracks/quota/:id',
    summary: 'Upload quota',
    description: 'For the caller (me or their own id); another user’s id is 403 unless the caller is an admin.',
    metadata: userRoute,
    pathParams: z.object({ id: UserIdOrMeSchema }),
    responses: { 200: envelope(named('QuotaReply', z.object({ quota: QuotaSchema }))), ...errors(400, 401, 403, 404) },
  },
  batchDelete: {
    method: 'POST',
    path: '/tracks/batch/delete',
    summary: 'Delete several tracks',
    description: `At most ${BATCH_MAX} ids. Ownership is checked per track (admins may delete any); partial success is reported.`,
    metadata: userRoute,
    body: named('BatchDeleteRequest', z.object({ track_ids: TrackIds })),
    responses: {
      200: envelope(named('BatchDeleteResult', z.object({ deleted: z.array(z.string()), failed: z.array(BatchFailureSchema) }))),
      ...errors(400, 401, 403, 413, 415),
    },
  },
  batchUpdate: {
    method: 'POST',
    path: '/tracks/batch/update',
    summary: 'Update several tracks',
    description: `At most ${BATCH_MAX} ids; updates is an UpdateTrackRequest. Ownership is checked per track; partial success is reported.`,
    metadata: userRoute,
    body: named('BatchUpdateRequest', z.object({ track_ids: TrackIds, updates: UpdateTrackRequestSchema })),
    responses: {
      200: envelope(named('BatchUpdateResult', z.object({ updated: z.array(z.string()), failed: z.array(BatchFailureSchema) }))),
      ...errors(400, 401, 403, 413, 415),
    },
  },
  get: {
    method: 'GET',
    path: '/tracks/:id',
    summary: 'A track',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: TrackEnvelope, ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/tracks/:id',
    summary: 'Edit a track',
    description: 'Owner or admin.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateTrackRequestSchema,
    responses: { 200: TrackEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/tracks/:id',
    summary: 'Delete a track (soft delete)',
    description: 'Owner or admin. The track is 404 everywhere afterwards and its file no longer counts against the quota.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  status: {
    method: 'GET',
    path: '/tracks/:id/status',
    summary: 'Processing status',
    description: 'Owner or admin; anyone else 404, also on a public track.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: {
      200: envelope(
        named(
          'TrackProcessingStatus',
          z.object({
            progress: z.number().int().min(0).max(100),
            status: z.enum(TRACK_STATUSES),
            stream_status: z.enum(STREAM_STATUSES),
            status_message: z.string().nullable(),
          }),
        ),
      ),
      ...errors(400, 401, 403, 404),
    },
  },
  getLyrics: {
    method: 'GET',
    path: '/tracks/:id/lyrics',
    summary: 'Lyrics of a track',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: envelope(named('LyricsReply', z.object({ lyrics: LyricsSchema.nullable() }))), ...errors(400, 401, 403, 404) },
  },
  putLyrics: {
    method: 'PUT',
    path: '/tracks/:id/lyrics',
    summary: 'Set the lyrics of a track',
    description: 'Plain text, or LRC ([mm:ss.xx] timestamps) which is recognised and returned with its timed lines. Empty content removes them.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: named('UpdateLyricsRequest', z.object({ content: z.string().max(50_000) })),
    responses: { 200: envelope(named('LyricsReply', z.object({ lyrics: LyricsSchema.nullable() }))), ...errors(400, 401, 403, 404, 413, 415) },
  },
  stream: {
    method: 'GET',
    path: '/tracks/:id/stream',
    summary: 'Stream the audio',
    description:
      'Serves the file with Range (206, 416), Accept-Ranges, ETag and If-None-Match. On S3 storage: 302 to a presigned URL ' +
      'valid 5 minutes. A private track streams only for its owner (bearer or stream token).',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    headers: streamHeaders,
    query: z.object({ token: z.string().max(4096).optional().describe('Stream token') }),
    responses: streamResponses,
  },
  download: {
    method: 'GET',
    path: '/tracks/:id/download',
    summary: 'Download the original file',
    description: 'Like stream, with Content-Disposition: attachment.',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    headers: streamHeaders,
    query: z.object({ token: z.string().max(4096).optional().describe('Stream token') }),
    responses: streamResponses,
  },
});

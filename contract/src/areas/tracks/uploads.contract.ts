import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { MessageSchema, TimestampSchema, UserIdOrMeSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import { ChunkFields, QuotaSchema, TrackEnvelope, TrackSchema, fileField } from './tracks.schemas.js';

const c = initContract();

/** Uploads in one request or resumable chunks, and the quota they count against. */
export const uploadsContract = c.router({
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
        file: fileField('The audio file'),
        title: z.string().max(255).optional(),
        is_public: z.enum(['true', 'false']).optional(),
      }),
    ).optional(),
    responses: { 201: TrackEnvelope, ...errors(400, 401, 403, 413, 415) },
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
    body: named('UploadChunkRequest', z.object({ ...ChunkFields, chunk: fileField('The chunk bytes') })).optional(),
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
      201: envelope(
        named('ChunkedUploadComplete', z.object({ track: TrackSchema, md5: z.string(), message: z.string() })),
      ),
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
    description:
      'The session’s owner only (others 404). Removes the chunks received and frees the reserved quota. 409 while it is being completed.',
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
});

export type InitiateChunkedUploadRequest = z.infer<typeof uploadsContract.initiate.body>;

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  IdParamsSchema,
  MessageSchema,
  PaginationQuerySchema,
  SORT_ORDERS,
  UuidSchema,
} from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { lyricsContract } from './lyrics.contract.js';
import { mediaContract } from './media.contract.js';
import { trackFileContract } from './track-file.contract.js';
import { MediaStatusEnvelope } from '../media/media.schemas.js';
import { uploadsContract } from './uploads.contract.js';
import {
  BATCH_MAX,
  BatchFailureSchema,
  TRACK_SORT_FIELDS,
  TrackEnvelope,
  TrackIds,
  SecretField,
  TrackPageSchema,
  TrackSearchQuerySchema,
  UpdateTrackRequestSchema,
} from './tracks.schemas.js';

const c = initContract();

/** The catalogue: listing, reading, editing and deleting tracks. */
export const trackCatalogContract = c.router({
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
      sort: z.enum(TRACK_SORT_FIELDS).default('created_at'),
      order: z.enum(SORT_ORDERS).default('desc'),
    }),
    responses: { 200: envelope(TrackPageSchema), ...errors(400, 401, 403) },
  },
  search: {
    method: 'GET',
    path: '/tracks/search',
    summary: 'Search tracks',
    description:
      'The search engine of GET /search over title, artist and album, with filters. Public tracks and the caller’s own; never ' +
      'tracks of users blocked either way. bpm_min above bpm_max (or duration_min above duration_max) is 400.',
    metadata: optionalAuth,
    query: TrackSearchQuerySchema,
    responses: { 200: envelope(TrackPageSchema), ...errors(400, 401, 403) },
  },
  batchDelete: {
    method: 'POST',
    path: '/tracks/batch/delete',
    summary: 'Delete several tracks',
    description: `At most ${BATCH_MAX} ids. Ownership is checked per track (admins may delete any); partial success is reported.`,
    metadata: userRoute,
    body: named('BatchDeleteRequest', z.object({ track_ids: TrackIds })),
    responses: {
      200: envelope(
        named('BatchDeleteResult', z.object({ deleted: z.array(z.string()), failed: z.array(BatchFailureSchema) })),
      ),
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
      200: envelope(
        named('BatchUpdateResult', z.object({ updated: z.array(z.string()), failed: z.array(BatchFailureSchema) })),
      ),
      ...errors(400, 401, 403, 413, 415),
    },
  },
  get: {
    method: 'GET',
    path: '/tracks/:id',
    summary: 'A track',
    description:
      'A private track: its owner, an admin, or anyone with its secret link (?secret=, see POST /tracks/{id}/share).',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: z.object({ secret: SecretField }),
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
    description:
      'Owner or admin. The track is 404 everywhere afterwards and its file no longer counts against the quota.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  status: {
    method: 'GET',
    path: '/tracks/:id/status',
    summary: 'Processing status',
    description:
      'Owner or admin; anyone else 404, also on a public track. progress (0–100) covers the HLS and waveform jobs (ffmpeg’s ' +
      '-progress drives the HLS part) and is 100 exactly when stream_status is ready and the waveform exists.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: {
      200: MediaStatusEnvelope,
      ...errors(400, 401, 403, 404),
    },
  },
});

/** What the server receives for the list query, after coercion and defaults. */
export type ListTracksQuery = z.infer<typeof trackCatalogContract.list.query>;

/** The tracks area: its sub-routers combined, so clients call client.tracks.<operation>. */
export const tracksContract = c.router({
  ...uploadsContract,
  ...trackCatalogContract,
  ...lyricsContract,
  ...mediaContract,
  ...trackFileContract,
});

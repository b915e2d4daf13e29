import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { withOpenApi } from '../../common/openapi-meta.js';
import { publicRoute, streamRoute, userRoute } from '../../common/route-meta.js';
import { binaryField, SecretField } from '../tracks/tracks.schemas.js';
import {
  HlsCallbackRequestSchema,
  HlsSegmentParamsSchema,
  HlsVariantParamsSchema,
  TrackVersionsEnvelope,
  WaveformSchema,
} from './media.schemas.js';

const c = initContract();

const streamToken = z.object({
  token: z.string().max(4096).optional().describe('Stream token (private tracks)'),
  secret: SecretField,
});
/** What the server writes into the URIs of its playlists: clients follow those URIs as they are. */
const hlsChildQuery = streamToken.extend({
  playback: z
    .string()
    .max(4096)
    .optional()
    .describe('Playback token of a private track, written by the server into its playlists'),
  v: z
    .string()
    .max(100)
    .optional()
    .describe('The generation of the stream the URI was written for; another one is 404'),
});
// any: clients hand a non-JSON body over as text or a Blob, as they read it
const playlist = c.otherResponse({
  contentType: 'application/vnd.apple.mpegurl',
  body: withOpenApi(z.any(), { type: 'string', description: 'An HLS playlist (#EXTM3U …)' }),
});

/**
 * The media pipeline's routes: the waveform, the cover, HLS, audio
 * versions and the external transcoder's callback. The status route stays tracks.status.
 */
export const mediaPipelineContract = c.router({
  waveform: {
    method: 'GET',
    path: '/tracks/:id/waveform',
    summary: 'Waveform peaks (audiowaveform JSON v2)',
    description:
      'Not enveloped: BBC audiowaveform JSON version 2, at most 1800 min/max pairs. Same visibility as the track. ' +
      'While it is being computed: 404 MEDIA_NOT_READY with Retry-After.',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    query: streamToken,
    responses: { 200: WaveformSchema, ...errors(400, 401, 404) },
  },
  cover: {
    method: 'GET',
    path: '/tracks/:id/cover',
    summary: 'Cover art',
    description:
      'The picture embedded in the audio’s tags, re-encoded (JPEG, or PNG with transparency); 404 when the file has none.',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    query: streamToken,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The picture') }),
      ...errors(400, 401, 404),
    },
  },
  hlsMaster: {
    method: 'GET',
    path: '/tracks/:id/hls/master.m3u8',
    summary: 'HLS master playlist',
    description:
      'Two variants (160k, 64k), AAC-LC in fMP4 segments of 6 s. Public tracks need no credential; private tracks need the ' +
      'owner’s stream token (?token= or bearer). Every URI of the playlists carries the stream’s generation (v); on a private ' +
      'track opened with a stream token they also carry a playback token (playback) good only for this track’s child ' +
      'playlists and segments of this generation, for the track’s duration plus 30 minutes (at most 12 h), so playback ' +
      'outlasts the 5-minute stream token. Cache-Control: max-age=60 (private on private tracks). 404 MEDIA_NOT_READY with ' +
      'Retry-After until the stream is ready, and again while a new audio is processed.',
    metadata: streamRoute,
    pathParams: IdParamsSchema,
    query: streamToken,
    responses: { 200: playlist, ...errors(400, 401, 404) },
  },
  hlsVariant: {
    method: 'GET',
    path: '/tracks/:id/hls/:variant/index.m3u8',
    summary: 'HLS variant playlist',
    description:
      'The playlist of one variant (160k or 64k); Cache-Control as the master’s. Accepts the playback token the master wrote ' +
      '(expired: 401 TOKEN_EXPIRED; another track’s: 401); a URI of a replaced stream (v) is 404.',
    metadata: streamRoute,
    pathParams: HlsVariantParamsSchema.pick({ id: true, variant: true }),
    query: hlsChildQuery,
    responses: { 200: playlist, ...errors(400, 401, 404) },
  },
  hlsSegment: {
    method: 'GET',
    path: '/tracks/:id/hls/:variant/:file',
    summary: 'HLS init or media segment',
    description:
      'init.mp4 or segment-NNNNN.m4s (fMP4). Public tracks: Cache-Control public, max-age=31536000, immutable; private: ' +
      'private. On S3 storage: 302 to a presigned URL. Playback token and v as for the variant playlist.',
    metadata: streamRoute,
    pathParams: HlsSegmentParamsSchema,
    query: hlsChildQuery,
    responses: {
      200: c.otherResponse({ contentType: 'audio/mp4', body: binaryField('An fMP4 segment') }),
      302: c.noBody(),
      ...errors(400, 401, 404),
    },
  },
  versions: {
    method: 'GET',
    path: '/tracks/:id/versions',
    summary: 'Versions of the audio',
    description:
      'Owner or admin: newest first, the current audio included (is_current). Another user who may see the track: 403.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: TrackVersionsEnvelope, ...errors(400, 401, 403, 404) },
  },
  hlsCallback: {
    method: 'POST',
    path: '/tracks/:id/hls/callback',
    summary: 'External transcoder: the stream is ready or failed',
    description:
      'For MEDIA_TRANSCODER=external: signed like an outgoing webhook (Standard Webhooks headers webhook-id, ' +
      'webhook-timestamp, webhook-signature) with MEDIA_CALLBACK_SECRET. A bad or missing signature: 401; a track not ' +
      'waiting for its stream: 409 CONFLICT.',
    metadata: publicRoute,
    pathParams: IdParamsSchema,
    body: HlsCallbackRequestSchema,
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 404, 409, 413, 415) },
  },
});

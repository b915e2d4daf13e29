import { initContract } from '@ts-rest/core';
import { ErrorEnvelopeSchema } from './common/envelope.schemas.js';
import { auditContract } from './areas/audit/audit.contract.js';
import { commentsContract } from './areas/comments/comments.contract.js';
import { authContract } from './areas/auth/auth.contract.js';
import { systemContract } from './areas/system/system.contract.js';
import { mediaPipelineContract } from './areas/media/media.contract.js';
import { queueContract } from './areas/queue/queue.contract.js';
import { tracksContract } from './areas/tracks/tracks.contract.js';
import { usersContract } from './areas/users/users.contract.js';

const c = initContract();

export const API_PREFIX = '/api/v1';

/**
 * Options every router shares: undeclared statuses are type errors; every route may answer 429
 * (the per-address request limit), 500, and 503 (while the service starts).
 */
const areaOptions = {
  strictStatusCodes: true,
  commonResponses: { 429: ErrorEnvelopeSchema, 500: ErrorEnvelopeSchema, 503: ErrorEnvelopeSchema },
} as const;

const apiOptions = { ...areaOptions, pathPrefix: API_PREFIX } as const;

/**
 * The whole API. Each top-level key is an area: its routes share the area's OpenAPI tag. Every
 * area except `system` lives under /api/v1.
 */
export const contract = c.router({
  system: c.router(systemContract, areaOptions),
  auth: c.router(authContract, apiOptions),
  users: c.router(usersContract, apiOptions),
  audit: c.router(auditContract, apiOptions),
  tracks: c.router(tracksContract, apiOptions),
  media: c.router(mediaPipelineContract, apiOptions),
  comments: c.router(commentsContract, apiOptions),
  queue: c.router(queueContract, apiOptions),
});

export type RiffContract = typeof contract;

/** Area descriptions, used as OpenAPI tag descriptions. */
export const AREA_DESCRIPTIONS: Record<keyof RiffContract, string> = {
  system: 'Liveness, readiness and the public keys for tokens (outside /api/v1)',
  auth: 'Registration, email verification, login, refresh rotation, 2FA, password reset, stream and chat tokens',
  users: 'Profiles, follows and blocks, privacy, preferences, data export and account deletion',
  audit: 'Your audit log: every security-relevant and mutating action, read-only',
  tracks: 'Uploads (one request or resumable chunks), metadata, lyrics, quota, streaming and download',
  media: 'The media pipeline: HLS streams, waveform peaks, cover art, audio versions, the external transcoder’s callback',
  comments: 'Timestamped comments on tracks, with one level of replies',
  queue:
    'Your play queue, synced between devices (versioned, If-Match), and shared listening sessions reached by a share token. ' +
    'Live updates of a session (items, playback, chat, end) come over the WebSocket GET /api/v1/ws?token=<chat or stream token> ' +
    '(not an HTTP operation, so not listed here): send {"type":"subscribe","session_token"}, receive {"type","session_token","data"}; ' +
    'the message formats are in docs/live-sessions.md.',
};

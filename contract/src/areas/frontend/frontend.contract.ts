import { initContract } from '@ts-rest/core';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { lenientAuth, optionalAuth, publicRoute } from '../../common/route-meta.js';
import {
  FRONTEND_LOG_MAX_BYTES,
  FrontendLogReceiptSchema,
  FrontendLogRequestSchema,
  ValidateRequestSchema,
  ValidateResponseSchema,
  WebRtcConfigSchema,
} from './frontend.schemas.js';

const c = initContract();

/** What a frontend needs beside the areas: its logs, request validation, the WebRTC configuration. */
export const frontendContract = c.router({
  logFrontend: {
    method: 'POST',
    path: '/logs/frontend',
    summary: 'Send a frontend log entry',
    description:
      'Written to the service log as one line with source "frontend", the request id and, when a valid bearer token is sent, the ' +
      `caller’s user id (an invalid or expired token is ignored here, not refused). The body is at most ${FRONTEND_LOG_MAX_BYTES / 1024} KiB ` +
      '(413 past it); at most 60 entries a minute per address (429).',
    metadata: { ...lenientAuth, jsonBodyLimit: FRONTEND_LOG_MAX_BYTES },
    body: FrontendLogRequestSchema,
    responses: { 200: envelope(FrontendLogReceiptSchema), ...errors(400, 413, 415) },
  },
  validate: {
    method: 'POST',
    path: '/validate',
    summary: 'Validate a request body before sending it',
    description:
      'Checks `data` (the UTF-8 bytes of a JSON document) against the request schema named by `type` (every named request body ' +
      'of this document) and answers with the same messages the endpoint itself would give. The reply is not enveloped. An unknown ' +
      'type, a byte outside 0–255 or bytes that are not JSON: 400 in the error envelope.',
    metadata: { ...publicRoute, jsonBodyLimit: 1024 * 1024 },
    body: ValidateRequestSchema,
    responses: { 200: ValidateResponseSchema, ...errors(400, 413, 415) },
  },
  webrtcConfig: {
    method: 'GET',
    path: '/config/webrtc',
    summary: 'ICE servers for WebRTC',
    description:
      'STUN servers from STUN_URLS; a TURN entry only when TURN_URLS and credentials are configured: the static TURN_USERNAME and ' +
      'TURN_CREDENTIAL, or with TURN_SECRET time-limited ones (coturn use-auth-secret: username `<expiry unix>:<user id or anon>`, ' +
      'credential base64 HMAC-SHA1 of the username, valid TURN_TTL_SECONDS). Without STUN_URLS the list is empty. Not enveloped.',
    metadata: optionalAuth,
    responses: { 200: WebRtcConfigSchema, ...errors(401, 403) },
  },
});

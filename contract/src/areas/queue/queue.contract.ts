import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { publicRoute, userRoute } from '../../common/route-meta.js';
import {
  AddQueueItemRequestSchema,
  AddQueueSessionItemRequestSchema,
  CreateQueueSessionRequestSchema,
  IfMatchHeadersSchema,
  QueueEnvelope,
  QueueItemEnvelope,
  QueueSessionEnvelope,
  QueueSessionItemEnvelope,
  SessionItemParamsSchema,
  SessionTokenParamsSchema,
  UpdateQueueRequestSchema,
  UpdateQueueSessionRequestSchema,
} from './queue.schemas.js';

const c = initContract();

const VERSIONED =
  ' Bumps the queue’s version. With If-Match (the version, bare or quoted as the ETag) a stale version answers ' +
  '412 PRECONDITION_FAILED and changes nothing. The reply carries the new ETag.';
const LIVE =
  ' Subscribers of the session’s live channel (WebSocket /api/v1/ws, see docs/live-sessions.md) are told at once.';

/** The caller's play queue: one per user, synced between their devices. */
const playQueue = {
  get: {
    method: 'GET',
    path: '/queue',
    summary: 'Your play queue',
    description:
      'Served with ETag (the version, quoted) and Cache-Control: private, no-cache; If-None-Match with the current ETag ' +
      'answers 304 without a body. A queue never written is empty, version 0.',
    metadata: userRoute,
    headers: z.object({
      'if-none-match': z.string().max(1024).optional().describe('The ETag you hold: 304 while it is current'),
    }),
    responses: { 200: QueueEnvelope, 304: c.noBody(), ...errors(400, 401, 403) },
  },
  update: {
    method: 'PUT',
    path: '/queue',
    summary: 'Replace parts of your queue',
    description:
      'Replaces what the body names and keeps the rest: track_ids is the complete new list of items (at most 1,000; a ' +
      'track you may not see is 404), current_index must name an item of the result (400 otherwise); without it, it is ' +
      'kept within the new list.' +
      VERSIONED,
    metadata: userRoute,
    headers: IfMatchHeadersSchema,
    body: UpdateQueueRequestSchema,
    responses: { 200: QueueEnvelope, ...errors(400, 401, 403, 404, 412, 413, 415) },
  },
  addItem: {
    method: 'POST',
    path: '/queue/items',
    summary: 'Add a track to your queue',
    description:
      'At the end, or right after the current item with play_next. A track you may not see is 404; a full queue ' +
      '(1,000 items) is 400 LIMIT_REACHED.' +
      VERSIONED,
    metadata: userRoute,
    headers: IfMatchHeadersSchema,
    body: AddQueueItemRequestSchema,
    responses: { 201: QueueItemEnvelope, ...errors(400, 401, 403, 404, 412, 413, 415) },
  },
  removeItem: {
    method: 'DELETE',
    path: '/queue/items/:id',
    summary: 'Remove an item from your queue',
    description: 'The items after it move up one place.' + VERSIONED,
    metadata: userRoute,
    headers: IfMatchHeadersSchema,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404, 412) },
  },
  clear: {
    method: 'DELETE',
    path: '/queue',
    summary: 'Clear your queue',
    description: 'Removes every item; current_index and position_seconds go back to 0.' + VERSIONED,
    metadata: userRoute,
    headers: IfMatchHeadersSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 412) },
  },
} as const;

/** Shared listening sessions, reached by their share token. */
const sessions = {
  createSession: {
    method: 'POST',
    path: '/queue/session',
    summary: 'Start a shared listening session',
    description:
      'Seeded with your queue (its items, current_index and position_seconds), not playing. The reply is the only place ' +
      'the token is given out to you: share it (share_url). At most 10 live sessions per host (400 LIMIT_REACHED).',
    metadata: userRoute,
    body: CreateQueueSessionRequestSchema,
    responses: { 201: QueueSessionEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  getSession: {
    method: 'GET',
    path: '/queue/session/:token',
    summary: 'A shared session, by its token',
    description:
      'No authentication: the token is the credential. An unknown, ended or expired token is 404; a path value that cannot be a share token (base64url) is 400 INVALID_ID. Tracks the caller may ' +
      'not see show as track null.',
    metadata: publicRoute,
    pathParams: SessionTokenParamsSchema,
    responses: { 200: QueueSessionEnvelope, ...errors(400, 404) },
  },
  updateSession: {
    method: 'PUT',
    path: '/queue/session/:token',
    summary: 'Set the session’s playback (host)',
    description:
      'current_index (an item of the session), position_seconds, is_playing. Another signed-in holder of the token: 403.' +
      LIVE,
    metadata: userRoute,
    pathParams: SessionTokenParamsSchema,
    body: UpdateQueueSessionRequestSchema,
    responses: { 200: QueueSessionEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  endSession: {
    method: 'DELETE',
    path: '/queue/session/:token',
    summary: 'End a shared session (host)',
    description: 'The token is 404 from then on. Another signed-in holder of the token: 403.' + LIVE,
    metadata: userRoute,
    pathParams: SessionTokenParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  addSessionItem: {
    method: 'POST',
    path: '/queue/session/:token/items',
    summary: 'Add a track to a shared session',
    description:
      'Any signed-in user holding the token; appended at the end. A track you may not see is 404; a full session (1,000 ' +
      'items) is 400 LIMIT_REACHED. A user who blocks the host, or whom the host blocks, is 403 (a block also ends each ' +
      'one’s membership of the other’s sessions).' +
      LIVE,
    metadata: userRoute,
    pathParams: SessionTokenParamsSchema,
    body: AddQueueSessionItemRequestSchema,
    responses: { 201: QueueSessionItemEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removeSessionItem: {
    method: 'DELETE',
    path: '/queue/session/:token/items/:id',
    summary: 'Remove an item from a shared session',
    description: 'The host, or whoever added it; anyone else holding the token: 403.' + LIVE,
    metadata: userRoute,
    pathParams: SessionItemParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
} as const;

export const queueContract = c.router({ ...playQueue, ...sessions });

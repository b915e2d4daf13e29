import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import {
  COMMENT_SORTS,
  COMMENTS_PER_MINUTE,
  CommentEnvelope,
  CommentPageEnvelope,
  CreateCommentRequestSchema,
  ReplyPageEnvelope,
  UpdateCommentRequestSchema,
} from './comments.schemas.js';

const c = initContract();

const VISIBILITY =
  'Comments are seen wherever their track is: a track the caller may not see (another user’s private track, a deleted one) is 404. ' +
  'Comments of users blocked by the signed-in caller, or who blocked them, are left out of the lists (and of the total).';

/** Timestamped comments on tracks, with one level of replies. */
export const commentsContract = c.router({
  list: {
    method: 'GET',
    path: '/tracks/:id/comments',
    summary: 'Comments of a track',
    description:
      `Top-level comments only (their replies: GET /comments/{id}/replies). sort=newest (default) or oldest by creation; ` +
      `sort=timestamp by ascending position in the track, then oldest first. ${VISIBILITY} ` +
      'A deleted comment that still has replies is listed as {is_deleted: true, content: null, user: null}.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: PaginationQuerySchema.extend({
      sort: z
        .enum(COMMENT_SORTS)
        .default('newest')
        .describe('newest (default), oldest, or timestamp (ascending position, then oldest first)'),
    }),
    responses: { 200: CommentPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  create: {
    method: 'POST',
    path: '/tracks/:id/comments',
    summary: 'Comment on a track',
    description:
      'Anyone signed in who may see the track, unless its owner blocked them (403). content is plain text, trimmed, 1–5000 characters, not blank. ' +
      'timestamp is the position in seconds (≥ 0, at most the track’s duration; 0 means no specific time). ' +
      'Replies form one level: parent_id must be a top-level comment of the same track (400 otherwise); replying to a reply attaches to ' +
      `its top-level comment. At most ${COMMENTS_PER_MINUTE} comments created per user per minute: beyond, 429 RATE_LIMITED with Retry-After ` +
      '(refused requests do not count).',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateCommentRequestSchema,
    responses: { 201: CommentEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/tracks/:id/comments/:comment_id',
    summary: 'Delete a comment',
    description:
      'The author, the track’s owner, or an admin (others who may see it: 403). A deleted comment that has replies stays as ' +
      '{is_deleted: true, content: null, user: null}; one without replies disappears, and a deleted comment disappears with its last reply.',
    metadata: userRoute,
    pathParams: z.object({ id: UuidSchema, comment_id: UuidSchema }),
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/comments/:id',
    summary: 'Edit a comment',
    description:
      'The author only (others who may see it: 403); sets is_edited. A deleted comment is 404. content: as when created.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateCommentRequestSchema,
    responses: { 200: CommentEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  replies: {
    method: 'GET',
    path: '/comments/:id/replies',
    summary: 'Replies to a comment',
    description: `Replies oldest first (limit 1–100). A reply has no replies of its own (an empty page). ${VISIBILITY}`,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: ReplyPageEnvelope, ...errors(400, 401, 403, 404) },
  },
});

/** What the server receives for the list queries, after coercion and defaults. */
export type ListCommentsQuery = z.infer<typeof commentsContract.list.query>;
export type ListRepliesQuery = z.infer<typeof commentsContract.replies.query>;

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import {
  CreateGroupPostRequestSchema,
  GROUP_POSTS_PER_HOUR,
  GroupPostEnvelope,
  GroupPostPageEnvelope,
  GroupPostQuerySchema,
  GroupPostRepliesEnvelope,
  UpdateGroupPostRequestSchema,
} from './group-posts.schemas.js';

const c = initContract();

const PostParamsSchema = z.object({ id: UuidSchema, post_id: UuidSchema });

const READERS =
  'Posts are read by a public group’s visitors and a private group’s members (a private group is 404 to others, and 403 to a user ' +
  'who holds an invite but has not joined). Posts of users the signed-in reader blocked, or who blocked them, are left out (and out of the total); ' +
  'a post hidden by moderation is seen only by its author and staff.';

/** The posts of a group: one level of replies, pins, references to tracks and playlists. */
export const groupPostsContract = c.router({
  list: {
    method: 'GET',
    path: '/groups/:id/posts',
    summary: 'Posts of a group',
    description: `Top-level posts, pinned first (latest pinned first), then newest; their replies: GET /groups/{id}/posts/{post_id}/replies. ${READERS}`,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: GroupPostQuerySchema,
    responses: { 200: GroupPostPageEnvelope, ...errors(400, 401, 403, 404) },
  },
  get: {
    method: 'GET',
    path: '/groups/:id/posts/:post_id',
    summary: 'One post of a group',
    description: READERS,
    metadata: optionalAuth,
    pathParams: PostParamsSchema,
    responses: { 200: GroupPostEnvelope, ...errors(400, 401, 403, 404) },
  },
  replies: {
    method: 'GET',
    path: '/groups/:id/posts/:post_id/replies',
    summary: 'Replies to a post',
    description: `Oldest first. ${READERS}`,
    metadata: optionalAuth,
    pathParams: PostParamsSchema,
    query: GroupPostQuerySchema,
    responses: { 200: GroupPostRepliesEnvelope, ...errors(400, 401, 403, 404) },
  },
  create: {
    method: 'POST',
    path: '/groups/:id/posts',
    summary: 'Post in a group',
    description:
      'Members only (others who may see the group: 403). A referenced track or playlist must be one the poster may see (404 otherwise); ' +
      'each reader sees it only if they may. parent_id makes a reply: a post of the same group (400 otherwise); replying to a reply attaches to ' +
      `its top-level post. At most ${GROUP_POSTS_PER_HOUR} posts (replies included) per member per group per hour: beyond, 429 RATE_LIMITED ` +
      'with Retry-After (refused requests do not count).',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateGroupPostRequestSchema,
    responses: { 201: GroupPostEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  update: {
    method: 'PUT',
    path: '/groups/:id/posts/:post_id',
    summary: 'Edit a post',
    description: 'The author only (others who may see it: 403); sets is_edited. content: as when created.',
    metadata: userRoute,
    pathParams: PostParamsSchema,
    body: UpdateGroupPostRequestSchema,
    responses: { 200: GroupPostEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/groups/:id/posts/:post_id',
    summary: 'Delete a post',
    description:
      'The author, the group’s moderators, admins and owner, or staff (others who may see it: 403). A top-level post goes with its replies.',
    metadata: userRoute,
    pathParams: PostParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  pin: {
    method: 'POST',
    path: '/groups/:id/posts/:post_id/pin',
    summary: 'Pin a post',
    description:
      'The group’s moderators, admins and owner (other readers: 403). Top-level posts only (a reply: 400). Pinning a pinned post changes nothing.',
    metadata: userRoute,
    pathParams: PostParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupPostEnvelope, ...errors(400, 401, 403, 404) },
  },
  unpin: {
    method: 'POST',
    path: '/groups/:id/posts/:post_id/unpin',
    summary: 'Unpin a post',
    description:
      'The group’s moderators, admins and owner (other readers: 403). Unpinning a post that is not pinned changes nothing.',
    metadata: userRoute,
    pathParams: PostParamsSchema,
    body: c.noBody(),
    responses: { 200: GroupPostEnvelope, ...errors(400, 401, 403, 404) },
  },
});

import { initContract } from '@ts-rest/core';
import { IdParamsSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { BlockStateEnvelope, FollowStateEnvelope, UserListEnvelope, UserIdOrMeParamsSchema } from './users.schemas.js';

const c = initContract();

/** Follows and blocks between users. */
export const followsContract = c.router({
  follow: {
    method: 'POST',
    path: '/users/:id/follow',
    summary: 'Follow a user',
    description: 'Idempotent. You cannot follow yourself, nor someone who blocked you or whom you blocked.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: FollowStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  unfollow: {
    method: 'DELETE',
    path: '/users/:id/follow',
    summary: 'Stop following a user',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: FollowStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  followers: {
    method: 'GET',
    path: '/users/:id/followers',
    summary: 'Who follows a user',
    metadata: optionalAuth,
    pathParams: UserIdOrMeParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403, 404) },
  },
  following: {
    method: 'GET',
    path: '/users/:id/following',
    summary: 'Whom a user follows',
    metadata: optionalAuth,
    pathParams: UserIdOrMeParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403, 404) },
  },
  block: {
    method: 'POST',
    path: '/users/:id/block',
    summary: 'Block a user',
    description:
      'Idempotent. Removes follows both ways; the blocked user can no longer follow you or see your profile.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: BlockStateEnvelope, ...errors(400, 401, 403, 404) },
  },
  unblock: {
    method: 'DELETE',
    path: '/users/:id/block',
    summary: 'Unblock a user',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: BlockStateEnvelope, ...errors(400, 401, 403, 404) },
  },
});

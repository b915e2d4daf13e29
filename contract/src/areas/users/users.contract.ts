import { initContract } from '@ts-rest/core';
import { avatarContract } from './avatar.contract.js';
import { z } from 'zod';
import {
  IdParamsSchema,
  MessageSchema,
  PaginationQuerySchema,
  SORT_ORDERS,
  queryBoolean,
  queryInt,
} from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { accountContract } from './account.contract.js';
import { followsContract } from './follows.contract.js';
import {
  ProfileEnvelope,
  ProfileSchema,
  USER_ROLES,
  USER_SORT_FIELDS,
  UpdateProfileRequestSchema,
  UserListEnvelope,
  UserIdOrMeParamsSchema,
} from './users.schemas.js';

const c = initContract();

/** Profiles: listing, search, reading and editing. */
export const profilesContract = c.router({
  list: {
    method: 'GET',
    path: '/users',
    summary: 'List users',
    description:
      'Active, verified users, filtered and sorted. search matches username, and first_name and last_name only where the caller ' +
      'may see them (public profiles, the caller’s own; everything and email too for admins). ' +
      'Sorting by email is for admins only.',
    metadata: optionalAuth,
    query: PaginationQuerySchema.extend({
      role: z.enum(USER_ROLES).optional(),
      is_active: queryBoolean().optional(),
      is_verified: queryBoolean().optional(),
      search: z.string().trim().min(1).max(100).optional(),
      sort_by: z.enum(USER_SORT_FIELDS).default('created_at'),
      sort_order: z.enum(SORT_ORDERS).default('desc'),
    }),
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403) },
  },
  search: {
    method: 'GET',
    path: '/users/search',
    summary: 'Search users',
    description:
      'Matches username, and first_name and last_name only where the caller may see them (public profiles, the caller’s own; all for admins); ' +
      'exact and prefix matches of the username rank first. Accounts whose email is not verified are not listed.',
    metadata: optionalAuth,
    query: PaginationQuerySchema.extend({ q: z.string().trim().min(1).max(100) }),
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403) },
  },
  suggestions: {
    method: 'GET',
    path: '/users/suggestions',
    summary: 'Users to follow',
    description: 'Excludes the caller, people the caller follows, and blocks either way. Most followed first.',
    metadata: userRoute,
    query: z.object({ limit: queryInt(1, 50).default(10) }),
    responses: {
      200: envelope(named('UserSuggestions', z.object({ users: z.array(ProfileSchema) }))),
      ...errors(400, 401, 403),
    },
  },
  byUsername: {
    method: 'GET',
    path: '/users/by-username/:username',
    summary: 'A profile by username',
    metadata: optionalAuth,
    pathParams: z.object({ username: z.string().min(1).max(50) }),
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404) },
  },
  get: {
    method: 'GET',
    path: '/users/:id',
    summary: 'A profile',
    metadata: optionalAuth,
    pathParams: UserIdOrMeParamsSchema,
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/users/:id',
    summary: 'Update your profile',
    description: 'Owner only. Changing the username re-derives the slug and sets username_changed_at.',
    metadata: userRoute,
    pathParams: UserIdOrMeParamsSchema,
    body: UpdateProfileRequestSchema,
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/users/:id',
    summary: 'Deactivate an account (soft delete)',
    description: 'Owner or admin. The account is hidden and its sessions end; its data is kept.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  completion: {
    method: 'GET',
    path: '/users/:id/completion',
    summary: 'Profile completion',
    metadata: userRoute,
    pathParams: UserIdOrMeParamsSchema,
    responses: {
      200: envelope(
        named(
          'ProfileCompletion',
          z.object({
            percentage: z.number().int().min(0).max(100),
            completed_fields: z.array(z.string()),
            missing_fields: z.array(z.string()),
          }),
        ),
      ),
      ...errors(400, 401, 403, 404),
    },
  },
});

/** What the server receives for these queries, after coercion and defaults. */
export type ListUsersQuery = z.infer<typeof profilesContract.list.query>;
export type SearchUsersQuery = z.infer<typeof profilesContract.search.query>;

/** The users area: its sub-routers combined, so clients call client.users.<operation>. */
export const usersContract = c.router({
  ...profilesContract,
  ...followsContract,
  ...accountContract,
  ...avatarContract,
});

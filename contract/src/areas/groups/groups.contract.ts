import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { AvatarQuerySchema } from '../media/media.schemas.js';
import { binaryField, fileField } from '../tracks/tracks.schemas.js';
import { groupMembershipContract } from './group-membership.contract.js';
import {
  CreateGroupRequestSchema,
  GROUPS_OWNED_MAX,
  GroupEnvelope,
  GroupListQuerySchema,
  GroupPageEnvelope,
  GroupSlugParamsSchema,
  UpdateGroupRequestSchema,
} from './groups.schemas.js';

const c = initContract();

const REACH =
  ' A private group is 404 to everyone but its members, a user holding an invite to it, and admins; a group moderation ' +
  'hid or removed is 404 to everyone but its owner and staff; a deleted group is 404.';

/** Groups themselves: creation, the list, one group, its edits, deletion and avatar. */
const groupCore = {
  create: {
    method: 'POST',
    path: '/groups',
    summary: 'Create a group',
    description:
      `You become its owner and first member. The slug is made from the name (-2, -3… when taken). At most ${GROUPS_OWNED_MAX} ` +
      'groups owned per user: the next is 400 LIMIT_REACHED.',
    metadata: userRoute,
    body: CreateGroupRequestSchema,
    responses: { 201: GroupEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  list: {
    method: 'GET',
    path: '/groups',
    summary: 'List groups',
    description:
      'Public groups, and the private ones you are a member of, newest first. q: words of the name (best matches first); ' +
      'member=me: only the groups you are a member of.',
    metadata: optionalAuth,
    query: GroupListQuerySchema,
    responses: { 200: GroupPageEnvelope, ...errors(400, 401) },
  },
  bySlug: {
    method: 'GET',
    path: '/groups/by-slug/:slug',
    summary: 'A group by its slug',
    description: 'As GET /groups/{id}.' + REACH,
    metadata: optionalAuth,
    pathParams: GroupSlugParamsSchema,
    responses: { 200: GroupEnvelope, ...errors(400, 401, 404) },
  },
  get: {
    method: 'GET',
    path: '/groups/:id',
    summary: 'A group',
    description: 'With my_role and my_status for the caller.' + REACH,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: GroupEnvelope, ...errors(400, 401, 404) },
  },
  update: {
    method: 'PUT',
    path: '/groups/:id',
    summary: 'Edit a group',
    description:
      'The owner and the group’s admins (others who see the group: 403). A new name makes a new slug. A group moderation ' +
      'removed cannot be edited (403).' +
      REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateGroupRequestSchema,
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/groups/:id',
    summary: 'Delete a group',
    description:
      'The owner only (others who see the group: 403). The group is gone for everyone: 404 from then on.' + REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  setAvatar: {
    method: 'PUT',
    path: '/groups/:id/avatar',
    summary: 'Set a group’s avatar',
    description:
      'The owner and the group’s admins. multipart/form-data with the image in field `file`: PNG, JPEG or WebP recognised ' +
      'by its content, at most 10 MiB, re-encoded without metadata as 512×512 and 128×128, as user avatars are; the ' +
      'group’s `avatar` becomes the absolute URL of GET /groups/{id}/avatar. Not an image: 400 INVALID_IMAGE.' +
      REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    contentType: 'multipart/form-data',
    body: named('SetGroupAvatarRequest', z.object({ file: fileField('The image') })).optional(),
    responses: { 200: GroupEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  avatar: {
    method: 'GET',
    path: '/groups/:id/avatar',
    summary: 'A group’s avatar',
    description: 'size=512 (default) or 128. Visible where the group is; 404 when it has none.' + REACH,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: AvatarQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The image (JPEG, or PNG with transparency)') }),
      ...errors(400, 401, 404),
    },
  },
} as const;

/** Groups: communities of users, their members, requests, invites, roles and bans. */
export const groupsContract = c.router({ ...groupCore, ...groupMembershipContract });

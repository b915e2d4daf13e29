import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { AvatarQuerySchema } from '../media/media.schemas.js';
import { binaryField, fileField } from '../tracks/tracks.schemas.js';
import { ProfileEnvelope } from './users.schemas.js';

const c = initContract();

/** Avatars, re-encoded without metadata as a 512×512 square and a 128×128 thumbnail. */
export const avatarContract = c.router({
  setAvatar: {
    method: 'PUT',
    path: '/users/me/avatar',
    summary: 'Set your avatar',
    description:
      'multipart/form-data with the image in field `file`: PNG, JPEG or WebP recognised by its content, at most 10 MiB. ' +
      'Re-encoded without its metadata (EXIF location) as 512×512 and 128×128; the profile’s `avatar` becomes the absolute ' +
      'URL of GET /users/{id}/avatar. Not an image: 400 INVALID_IMAGE; over 10 MiB: 413 PAYLOAD_TOO_LARGE.',
    metadata: userRoute,
    contentType: 'multipart/form-data',
    body: named('SetAvatarRequest', z.object({ file: fileField('The image') })).optional(),
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  removeAvatar: {
    method: 'DELETE',
    path: '/users/me/avatar',
    summary: 'Remove your avatar',
    description: 'Deletes both sizes; the profile’s `avatar` becomes null.',
    metadata: userRoute,
    body: c.noBody(),
    responses: { 200: ProfileEnvelope, ...errors(401, 403) },
  },
  avatar: {
    method: 'GET',
    path: '/users/:id/avatar',
    summary: 'A user’s avatar',
    description: 'size=512 (default) or 128. Visible where the profile is; 404 when the user has none.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: AvatarQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The image (JPEG, or PNG with transparency)') }),
      ...errors(400, 401, 404),
    },
  },
});

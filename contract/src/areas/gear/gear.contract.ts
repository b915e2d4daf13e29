import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, pageOf } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { ProfileSchema } from '../users/users.schemas.js';
import { binaryField, fileField } from '../tracks/tracks.schemas.js';
import {
  CreateGearRequestSchema,
  GEAR_PER_USER_MAX,
  GEAR_PHOTOS_MAX,
  GearEnvelope,
  GearOwnersQuerySchema,
  GearPageEnvelope,
  GearPhotoParamsSchema,
  GearPhotoQuerySchema,
  GearPopularQuerySchema,
  GearSearchQuerySchema,
  PopularGearEnvelope,
  SetTrackGearRequestSchema,
  TRACK_GEAR_MAX,
  TrackGearEnvelope,
  UpdateGearRequestSchema,
  UserGearQuerySchema,
} from './gear.schemas.js';

const c = initContract();

/** GET /gear/owners: profiles (declared here, where the users area's schemas may be named without a cycle). */
export const GearOwnersEnvelope = envelope(named('GearOwnerPage', pageOf('users', ProfileSchema)));

const VISIBLE =
  ' A private item is its owner’s (and admins’): 404 to everyone else, as is an item of an account the caller may not see ' +
  '(blocked either way, deactivated, banned).';
const DISCOVERY =
  ' Only public items of accounts in good standing count (not deactivated, banned or suspended), never those of a user who ' +
  'blocked the caller or whom the caller blocked.';

/** What musicians play and record with: their items, photos, the tracks that name them, and discovery. */
export const gearContract = c.router({
  // the static paths first (the router also ranks a literal segment above :id)
  search: {
    method: 'GET',
    path: '/gear/search',
    summary: 'Search gear',
    description:
      'Public items whose brand, model or nickname match `q` (case and accents ignored, typos tolerated: "moog subsequnt" ' +
      'finds a Moog Subsequent 37), best match first.' +
      DISCOVERY,
    metadata: optionalAuth,
    query: GearSearchQuerySchema,
    responses: { 200: GearPageEnvelope, ...errors(400, 401) },
  },
  popular: {
    method: 'GET',
    path: '/gear/popular',
    summary: 'The most owned gear',
    description:
      'Models by how many users own one as a public item, most first. Brand and model are compared in a normal form (case, ' +
      'accents and spacing ignored): "Moog  subsequent 37" and "moog Subsequent 37" are one model.' +
      DISCOVERY,
    metadata: optionalAuth,
    query: GearPopularQuerySchema,
    responses: { 200: PopularGearEnvelope, ...errors(400, 401) },
  },
  owners: {
    method: 'GET',
    path: '/gear/owners',
    summary: 'Who owns a model',
    description:
      'The profiles that own this brand and model (compared as in /gear/popular) as a public item, most recent owner first.' +
      DISCOVERY,
    metadata: optionalAuth,
    query: GearOwnersQuerySchema,
    responses: { 200: GearOwnersEnvelope, ...errors(400, 401) },
  },
  create: {
    method: 'POST',
    path: '/gear',
    summary: 'Add an item of gear',
    description: `Public unless is_public is false. At most ${GEAR_PER_USER_MAX} items per user (the next: 400 LIMIT_REACHED).`,
    metadata: userRoute,
    body: CreateGearRequestSchema,
    responses: { 201: GearEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  get: {
    method: 'GET',
    path: '/gear/:id',
    summary: 'An item of gear',
    description: VISIBLE.trim(),
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: GearEnvelope, ...errors(400, 401, 404) },
  },
  update: {
    method: 'PUT',
    path: '/gear/:id',
    summary: 'Change an item of gear',
    description:
      'The owner (or an admin); others who may see it get 403. Fields left out stay; null clears an optional one.' +
      VISIBLE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateGearRequestSchema,
    responses: { 200: GearEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/gear/:id',
    summary: 'Delete an item of gear',
    description: 'The owner (or an admin): its photos and its links to tracks go with it.' + VISIBLE,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  userGear: {
    method: 'GET',
    path: '/users/:id/gear',
    summary: 'A user’s gear',
    description:
      'Your own items, all of them; another user’s public items, where their profile is visible to you (404 when it is not, ' +
      'or when either of you blocked the other). Newest first.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: UserGearQuerySchema,
    responses: { 200: GearPageEnvelope, ...errors(400, 401, 404) },
  },
  addPhoto: {
    method: 'POST',
    path: '/gear/:id/photos',
    summary: 'Add a photo',
    description:
      'multipart/form-data with the image in field `file`: PNG, JPEG or WebP recognised by its content, at most 10 MiB (413 ' +
      'PAYLOAD_TOO_LARGE beyond); not an image: 400 INVALID_IMAGE. Re-encoded without its metadata (EXIF location) fitted ' +
      `inside 1600×1600 and a 320×320 thumbnail. At most ${GEAR_PHOTOS_MAX} photos per item (the next: 400 LIMIT_REACHED). ` +
      'The owner only.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    contentType: 'multipart/form-data',
    body: named('AddGearPhotoRequest', z.object({ file: fileField('The image') })).optional(),
    responses: { 201: GearEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  photo: {
    method: 'GET',
    path: '/gear/:id/photos/:photoId',
    summary: 'A photo of an item',
    description: 'size=1600 (default) or 320 (the thumbnail). Visible where the item is.',
    metadata: optionalAuth,
    pathParams: GearPhotoParamsSchema,
    query: GearPhotoQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The image (JPEG, or PNG with transparency)') }),
      ...errors(400, 401, 404),
    },
  },
  removePhoto: {
    method: 'DELETE',
    path: '/gear/:id/photos/:photoId',
    summary: 'Delete a photo',
    description: 'The owner (or an admin): the stored files go too.' + VISIBLE,
    metadata: userRoute,
    pathParams: GearPhotoParamsSchema,
    body: c.noBody(),
    responses: { 200: GearEnvelope, ...errors(400, 401, 403, 404) },
  },
  setTrackGear: {
    method: 'PUT',
    path: '/tracks/:id/gear',
    summary: 'Say what a track was made with',
    description:
      `Replaces the track’s items with these (at most ${TRACK_GEAR_MAX}, the next: 400 LIMIT_REACHED; an empty list clears ` +
      'them). The track’s owner only: another user’s track they may see is 403, one they may not 404. An id that is not ' +
      'one of your items: 404.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: SetTrackGearRequestSchema,
    responses: { 200: TrackGearEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  trackGear: {
    method: 'GET',
    path: '/tracks/:id/gear',
    summary: 'What a track was made with',
    description:
      'Of a track you may see: its public items (to its owner, all of them). 404 for a track you may not see.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: TrackGearEnvelope, ...errors(400, 401, 404) },
  },
});

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import { AvatarQuerySchema } from '../media/media.schemas.js';
import { binaryField, fileField } from '../tracks/tracks.schemas.js';
import { courseLessonsContract } from './course-lessons.contract.js';
import { courseProgressContract } from './course-progress.contract.js';
import { courseReviewsContract } from './course-reviews.contract.js';
import {
  COURSE_COVER_MAX_BYTES,
  CourseEnvelope,
  CourseListQuerySchema,
  CoursePageEnvelope,
  CreateCourseRequestSchema,
  EnrollmentEnvelope,
  UpdateCourseRequestSchema,
} from './courses.schemas.js';

const c = initContract();

export const COURSE_REACH =
  ' A draft is 404 to everyone but its instructor and staff; an archived course is 404 to everyone but its current ' +
  'learners, its instructor and staff; a course moderation hid or removed is 404 to everyone but its instructor and staff.';

/** Courses themselves: creation, the catalogue, one course, its edits and status moves, deletion, cover, enrollment. */
const courseCore = {
  create: {
    method: 'POST',
    path: '/courses',
    summary: 'Create a course',
    description:
      'Creators and admins (others 403). The course starts as a draft, with the caller as its instructor; the slug is made ' +
      'from the title.',
    metadata: userRoute,
    body: CreateCourseRequestSchema,
    responses: { 201: CourseEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  list: {
    method: 'GET',
    path: '/courses',
    summary: 'The course catalogue',
    description:
      'Published courses only. q: words of the title, summary or topics (best matches first, typos tolerated); topic, ' +
      'level, language, instructor_id and free filter; sort=popular (most current enrollments, default), newest (last ' +
      'published) or rating (best average first, unrated last).',
    metadata: optionalAuth,
    query: CourseListQuerySchema,
    responses: { 200: CoursePageEnvelope, ...errors(400, 401) },
  },
  enrolled: {
    method: 'GET',
    path: '/courses/enrolled',
    summary: 'The courses I am enrolled in',
    description: 'Most recently enrolled first, archived courses included.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: CoursePageEnvelope, ...errors(400, 401) },
  },
  teaching: {
    method: 'GET',
    path: '/courses/teaching',
    summary: 'The courses I teach',
    description: 'Every status, newest first; empty for a user who teaches nothing.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: CoursePageEnvelope, ...errors(400, 401) },
  },
  get: {
    method: 'GET',
    path: '/courses/:id',
    summary: 'A course',
    description: 'With my_enrollment for the caller.' + COURSE_REACH,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: CourseEnvelope, ...errors(400, 401, 404) },
  },
  update: {
    method: 'PUT',
    path: '/courses/:id',
    summary: 'Edit a course or move its status',
    description:
      'The instructor and admins (others who see the course: 403). status: draft → published (needs at least one lesson) → ' +
      'archived → published; anything else 400 INVALID_TRANSITION. A course moderation removed cannot be edited (403).' +
      COURSE_REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateCourseRequestSchema,
    responses: { 200: CourseEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/courses/:id',
    summary: 'Delete a course',
    description:
      'The instructor and admins. A course with enrollments is archived instead (its learners keep reading it); one ' +
      'without is deleted.' +
      COURSE_REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  setCover: {
    method: 'PUT',
    path: '/courses/:id/cover',
    summary: 'Set a course’s cover',
    description:
      `The instructor and admins. multipart/form-data with the image in field \`file\`: PNG, JPEG or WebP recognised by its ` +
      `content, at most ${COURSE_COVER_MAX_BYTES / 1024 / 1024} MiB, re-encoded without metadata as 512×512 and 128×128, ` +
      'as avatars are; `cover_url` becomes the absolute URL of GET /courses/{id}/cover. Not an image: 400 INVALID_IMAGE.' +
      COURSE_REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    contentType: 'multipart/form-data',
    body: named('SetCourseCoverRequest', z.object({ file: fileField('The image') })).optional(),
    responses: { 200: CourseEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  cover: {
    method: 'GET',
    path: '/courses/:id/cover',
    summary: 'A course’s cover',
    description: 'size=512 (default) or 128. Visible where the course is; 404 when it has none.' + COURSE_REACH,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: AvatarQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'image/*', body: binaryField('The image (JPEG, or PNG with transparency)') }),
      ...errors(400, 401, 404),
    },
  },
  enroll: {
    method: 'POST',
    path: '/courses/:id/enroll',
    summary: 'Enroll in a free course',
    description:
      'A published free course: 201 with the enrollment, 200 with the same enrollment when already enrolled. A paid ' +
      'course: 403 PURCHASE_REQUIRED. A draft or archived course cannot be enrolled in (404 or 400).' +
      COURSE_REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: EnrollmentEnvelope, 201: EnrollmentEnvelope, ...errors(400, 401, 403, 404) },
  },
  leave: {
    method: 'DELETE',
    path: '/courses/:id/enroll',
    summary: 'Leave a free course',
    description: 'Ends the caller’s enrollment and its progress. Not enrolled: 403 NOT_ENROLLED.' + COURSE_REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
} as const;

/** Education: courses by creators, their lessons, enrollment, progress, certificates and reviews. */
export const coursesContract = c.router({
  ...courseCore,
  ...courseLessonsContract,
  ...courseProgressContract,
  ...courseReviewsContract,
});

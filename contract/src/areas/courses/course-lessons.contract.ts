import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import {
  COURSE_LESSONS_MAX,
  CreateLessonRequestSchema,
  LessonEnvelope,
  LessonListEnvelope,
  LessonParamsSchema,
  ReorderLessonsRequestSchema,
  UpdateLessonRequestSchema,
} from './courses.schemas.js';

const c = initContract();

const REACH =
  ' The course’s reach holds: a draft is 404 to everyone but its instructor and staff; an archived course is 404 to ' +
  'everyone but its current learners, its instructor and staff; a hidden or removed course to everyone but its ' +
  'instructor and staff.';

/** A course's lessons: the list, one lesson under the read rule, and the instructor's edits. */
export const courseLessonsContract = {
  // the static path first (the router also ranks a literal segment above :lessonId)
  reorderLessons: {
    method: 'PUT',
    path: '/courses/:id/lessons/reorder',
    summary: 'Reorder a course’s lessons',
    description:
      'The instructor and admins. lesson_ids: every lesson of the course exactly once, in the new order (else 400).' +
      REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: ReorderLessonsRequestSchema,
    responses: { 200: LessonListEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  createLesson: {
    method: 'POST',
    path: '/courses/:id/lessons',
    summary: 'Add a lesson',
    description:
      `The instructor and admins; placed last. At most ${COURSE_LESSONS_MAX} lessons per course (400 LIMIT_REACHED). ` +
      'A course moderation removed cannot be edited (403).' +
      REACH,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateLessonRequestSchema,
    responses: { 201: LessonEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  lessons: {
    method: 'GET',
    path: '/courses/:id/lessons',
    summary: 'A course’s lessons',
    description: 'In course order, without their content, to anyone who may see the course.' + REACH,
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    responses: { 200: LessonListEnvelope, ...errors(400, 401, 404) },
  },
  lesson: {
    method: 'GET',
    path: '/courses/:id/lessons/:lessonId',
    summary: 'A lesson with its content',
    description:
      'Whole for the course’s current learners, its instructor and staff, and for anyone when the lesson is a preview; ' +
      'anyone else who sees the course: 403 NOT_ENROLLED.' +
      REACH,
    metadata: optionalAuth,
    pathParams: LessonParamsSchema,
    responses: { 200: LessonEnvelope, ...errors(400, 401, 403, 404) },
  },
  updateLesson: {
    method: 'PUT',
    path: '/courses/:id/lessons/:lessonId',
    summary: 'Edit a lesson',
    description: 'The instructor and admins.' + REACH,
    metadata: userRoute,
    pathParams: LessonParamsSchema,
    body: UpdateLessonRequestSchema,
    responses: { 200: LessonEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  removeLesson: {
    method: 'DELETE',
    path: '/courses/:id/lessons/:lessonId',
    summary: 'Delete a lesson',
    description:
      'The instructor and admins; the lessons after it move up. The last lesson of a published course cannot go (400).' +
      REACH,
    metadata: userRoute,
    pathParams: LessonParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
} as const;

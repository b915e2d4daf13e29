import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth, userRoute } from '../../common/route-meta.js';
import {
  COURSE_REVIEW_MIN_PROGRESS,
  CourseReviewEnvelope,
  CourseReviewPageEnvelope,
  CourseReviewParamsSchema,
  CreateCourseReviewRequestSchema,
} from './courses.schemas.js';

const c = initContract();

/** Reviews of a course by its learners: avg_rating and review_count follow them. */
export const courseReviewsContract = {
  createReview: {
    method: 'POST',
    path: '/courses/:id/reviews',
    summary: 'Review a course',
    description:
      `A current learner with at least ${COURSE_REVIEW_MIN_PROGRESS} % of the course completed (less: 403 ` +
      'NOT_ENOUGH_PROGRESS; not enrolled: 403 NOT_ENROLLED). One per learner: 201 the first time, 200 when it replaces ' +
      'the earlier one. A course the caller may not see: 404.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateCourseReviewRequestSchema,
    responses: { 200: CourseReviewEnvelope, 201: CourseReviewEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  listReviews: {
    method: 'GET',
    path: '/courses/:id/reviews',
    summary: 'A course’s reviews',
    description: 'Latest first, to anyone who may see the course.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: PaginationQuerySchema,
    responses: { 200: CourseReviewPageEnvelope, ...errors(400, 401, 404) },
  },
  removeReview: {
    method: 'DELETE',
    path: '/courses/:id/reviews/:reviewId',
    summary: 'Delete a review',
    description: 'Its author and staff (others who see the course: 403).',
    metadata: userRoute,
    pathParams: CourseReviewParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
} as const;

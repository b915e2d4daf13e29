import { initContract } from '@ts-rest/core';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { publicRoute, userRoute } from '../../common/route-meta.js';
import { binaryField } from '../tracks/tracks.schemas.js';
import {
  CertificateEnvelope,
  CertificateParamsSchema,
  CourseProgressEnvelope,
  LessonParamsSchema,
} from './courses.schemas.js';

const c = initContract();

const ENROLLED =
  ' The course’s current learners only (anyone else who sees the course: 403 NOT_ENROLLED; a course the caller may not ' +
  'see: 404).';

/** A learner's progress through a course, its completion, and the certificate. */
export const courseProgressContract = {
  completeLesson: {
    method: 'POST',
    path: '/courses/:id/lessons/:lessonId/complete',
    summary: 'Mark a lesson complete',
    description:
      'Idempotent. When every lesson of the course is complete the enrollment is completed (completed_at, a certificate ' +
      'code; event course.completed; the instructor is notified).' +
      ENROLLED,
    metadata: userRoute,
    pathParams: LessonParamsSchema,
    body: c.noBody(),
    responses: { 200: CourseProgressEnvelope, ...errors(400, 401, 403, 404) },
  },
  uncompleteLesson: {
    method: 'DELETE',
    path: '/courses/:id/lessons/:lessonId/complete',
    summary: 'Undo a lesson’s completion',
    description:
      'Idempotent; clears the enrollment’s completed_at (its certificate does not verify until the course is complete again, with the same code).' +
      ENROLLED,
    metadata: userRoute,
    pathParams: LessonParamsSchema,
    body: c.noBody(),
    responses: { 200: CourseProgressEnvelope, ...errors(400, 401, 403, 404) },
  },
  progress: {
    method: 'GET',
    path: '/courses/:id/progress',
    summary: 'My progress in a course',
    description: 'The lessons I completed and the percentage.' + ENROLLED,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: CourseProgressEnvelope, ...errors(400, 401, 403, 404) },
  },
  certificate: {
    method: 'GET',
    path: '/courses/:id/certificate',
    summary: 'My certificate of completion (PDF)',
    description:
      'A PDF naming the learner, the course, the instructor and the completion date, with the verification code (as ' +
      '`my_enrollment.certificate_code`). Learners who have not completed the course: 403 NOT_COMPLETED; not enrolled: ' +
      '403 NOT_ENROLLED.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: {
      200: c.otherResponse({ contentType: 'application/pdf', body: binaryField('The certificate (PDF)') }),
      ...errors(400, 401, 403, 404),
    },
  },
  verifyCertificate: {
    method: 'GET',
    path: '/certificates/:code',
    summary: 'Verify a certificate',
    description:
      'Public: what the certificate of this code says. An unknown code, or one whose learner undid a lesson since: 404.',
    metadata: publicRoute,
    pathParams: CertificateParamsSchema,
    responses: { 200: CertificateEnvelope, ...errors(400, 404) },
  },
} as const;

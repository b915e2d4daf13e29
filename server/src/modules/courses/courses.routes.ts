import { buffer } from 'node:stream/consumers';
import { COURSE_COVER_MAX_BYTES, contract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import { validationFailed } from '../../platform/errors/app-error.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import { parseMultipart } from '../../platform/http/multipart.js';
import type { CoursesService } from './courses.service.js';
import type { LessonsService } from './lessons.service.js';
import type { ProgressService } from './progress.service.js';
import type { ReviewsService } from './reviews.service.js';

export interface CoursesRoutesDeps {
  courses: CoursesService;
  lessons: LessonsService;
  progress: ProgressService;
  reviews: ReviewsService;
}

export function coursesRoutes({ courses, lessons, progress, reviews }: CoursesRoutesDeps) {
  return contractRoutes(contract.courses, {
    create: async ({ body, req }) => ({
      status: 201,
      body: ok({ course: await courses.create(signedInActor(req), body) }),
    }),
    list: async ({ query, req }) => ({ status: 200, body: ok(await courses.list(actorOf(req), query)) }),
    enrolled: async ({ query, req }) => ({ status: 200, body: ok(await courses.enrolled(signedInActor(req), query)) }),
    teaching: async ({ query, req }) => ({ status: 200, body: ok(await courses.teaching(signedInActor(req), query)) }),
    get: async ({ params, req }) => ({ status: 200, body: ok({ course: await courses.get(actorOf(req), params.id) }) }),
    update: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ course: await courses.update(signedInActor(req), params.id, body) }),
    }),
    remove: async ({ params, req }) => ({ status: 200, body: ok(await courses.remove(signedInActor(req), params.id)) }),
    setCover: async ({ params, req }) => {
      const actor = signedInActor(req);
      // who may change it is answered before the upload is read (404 or 403)
      await courses.editable(actor, params.id);
      const { file } = await parseMultipart(req, {
        fileField: 'file',
        maxFileBytes: COURSE_COVER_MAX_BYTES,
        onFile: (stream) => buffer(stream),
      });
      if (!file) throw validationFailed('Send the image in the field "file"');
      return { status: 200, body: ok({ course: await courses.setCover(actor, params.id, file) }) };
    },
    cover: async ({ params, query, req, res }) => {
      const image = await courses.cover(actorOf(req), params.id, query.size);
      res.setHeader('Content-Type', image.contentType);
      res.setHeader('Cache-Control', 'private, max-age=60');
      image.body.on('error', () => res.destroy());
      return { status: 200, body: image.body };
    },
    enroll: async ({ params, req }) => {
      const { enrollment, created } = await lessons.enroll(signedInActor(req), params.id);
      return created ? { status: 201, body: ok({ enrollment }) } : { status: 200, body: ok({ enrollment }) };
    },
    leave: async ({ params, req }) => ({ status: 200, body: ok(await lessons.leave(signedInActor(req), params.id)) }),
    reorderLessons: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ lessons: await lessons.reorder(signedInActor(req), params.id, body.lesson_ids) }),
    }),
    createLesson: async ({ params, body, req }) => ({
      status: 201,
      body: ok({ lesson: await lessons.create(signedInActor(req), params.id, body) }),
    }),
    lessons: async ({ params, req }) => ({
      status: 200,
      body: ok({ lessons: await lessons.list(actorOf(req), params.id) }),
    }),
    lesson: async ({ params, req }) => ({
      status: 200,
      body: ok({ lesson: await lessons.get(actorOf(req), params.id, params.lessonId) }),
    }),
    updateLesson: async ({ params, body, req }) => ({
      status: 200,
      body: ok({ lesson: await lessons.update(signedInActor(req), params.id, params.lessonId, body) }),
    }),
    removeLesson: async ({ params, req }) => ({
      status: 200,
      body: ok(await lessons.remove(signedInActor(req), params.id, params.lessonId)),
    }),
    completeLesson: async ({ params, req }) => ({
      status: 200,
      body: ok({ progress: await progress.mark(signedInActor(req), params.id, params.lessonId, true) }),
    }),
    uncompleteLesson: async ({ params, req }) => ({
      status: 200,
      body: ok({ progress: await progress.mark(signedInActor(req), params.id, params.lessonId, false) }),
    }),
    progress: async ({ params, req }) => ({
      status: 200,
      body: ok({ progress: await progress.progress(signedInActor(req), params.id) }),
    }),
    certificate: async ({ params, req, res }) => {
      const { pdf, code } = await progress.certificatePdf(signedInActor(req), params.id);
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="certificate-${code}.pdf"`);
      res.setHeader('Cache-Control', 'private, no-store');
      return { status: 200, body: pdf };
    },
    verifyCertificate: async ({ params, req }) => ({
      status: 200,
      body: ok({ certificate: await progress.verify(actorOf(req), params.code) }),
    }),
    createReview: async ({ params, body, req }) => {
      const { review, created } = await reviews.write(signedInActor(req), params.id, body);
      return created ? { status: 201, body: ok({ review }) } : { status: 200, body: ok({ review }) };
    },
    listReviews: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await reviews.list(actorOf(req), params.id, query)),
    }),
    removeReview: async ({ params, req }) => ({
      status: 200,
      body: ok(await reviews.remove(signedInActor(req), params.id, params.reviewId)),
    }),
  });
}

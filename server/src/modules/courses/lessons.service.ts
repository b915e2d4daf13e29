import {
  COURSE_LESSONS_MAX,
  type CreateLessonRequest,
  type Enrollment,
  type Lesson,
  type LessonSummary,
  type UpdateLessonRequest,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, badRequest, invalidField, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { CourseViews } from './course-views.js';
import type { CoursesService } from './courses.service.js';
import { toEnrollmentDto, toLessonDto, toLessonSummary } from './courses.mapper.js';
import { canReadLessonContent, isEnrolled } from './courses.policy.js';
import type { CoursesRepository } from './courses.repository.js';
import { percentOf, type EnrollmentsRepository } from './enrollments.repository.js';
import type { LessonsRepository } from './lessons.repository.js';

export interface LessonsServiceDeps {
  scope: DbScope;
  events: EventBus;
  courses: CoursesRepository;
  lessons: LessonsRepository;
  enrollments: EnrollmentsRepository;
  views: CourseViews;
  /** Who may edit a course (the courses service's one rule). */
  editable: Pick<CoursesService, 'editable'>;
}

const notEnrolled = () => new AppError('NOT_ENROLLED', 'Enroll in the course to read this lesson');

/** A course's lessons (order, the read rule, the instructor's edits) and free enrollment. */
export class LessonsService {
  constructor(private readonly deps: LessonsServiceDeps) {}

  /** POST /courses/{id}/lessons: placed last, under the per-course limit (lessons of a course one at a time). */
  async create(actor: UserActor, courseId: string, body: CreateLessonRequest): Promise<Lesson> {
    return this.deps.scope.transaction(async () => {
      await this.deps.editable.editable(actor, courseId);
      await this.deps.courses.lock(courseId);
      const count = await this.deps.lessons.count(courseId);
      if (count >= COURSE_LESSONS_MAX) throw limitReached(`A course has at most ${COURSE_LESSONS_MAX} lessons`);
      const row = await this.deps.lessons.insert({
        course_id: courseId,
        title: body.title,
        kind: body.kind,
        position: count + 1,
        is_preview: body.is_preview ?? false,
        body: body.body ?? null,
        duration_seconds: null,
      });
      await this.deps.events.record(actor, 'course.lesson_created', {
        subject: { resource: 'course_lesson', id: row.id },
        data: { course_id: courseId, title: row.title },
      });
      return toLessonDto(row);
    });
  }

  /** GET /courses/{id}/lessons: the outline, to anyone who sees the course. */
  async list(actor: Actor, courseId: string): Promise<LessonSummary[]> {
    await this.deps.views.required(actor, courseId);
    return (await this.deps.lessons.ofCourse(courseId)).map(toLessonSummary);
  }

  /** GET /courses/{id}/lessons/{lessonId}: whole under the read rule; others who see the course 403 NOT_ENROLLED. */
  async get(actor: Actor, courseId: string, lessonId: string): Promise<Lesson> {
    const view = await this.deps.views.required(actor, courseId);
    const row = await this.deps.lessons.find(courseId, lessonId);
    if (!row) throw notFound('Lesson');
    if (!canReadLessonContent(actor, view, row.is_preview)) throw notEnrolled();
    return toLessonDto(row);
  }

  async update(actor: UserActor, courseId: string, lessonId: string, body: UpdateLessonRequest): Promise<Lesson> {
    return this.deps.scope.transaction(async () => {
      await this.deps.editable.editable(actor, courseId);
      const row = await this.deps.lessons.find(courseId, lessonId);
      if (!row) throw notFound('Lesson');
      const changes: Parameters<LessonsRepository['update']>[1] = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.body !== undefined) changes.body = body.body;
      if (body.is_preview !== undefined) changes.is_preview = body.is_preview;
      await this.deps.lessons.update(lessonId, changes);
      await this.deps.events.record(actor, 'course.lesson_updated', {
        subject: { resource: 'course_lesson', id: lessonId },
        data: { course_id: courseId, fields: Object.keys(changes) },
      });
      return toLessonDto((await this.deps.lessons.find(courseId, lessonId))!);
    });
  }

  /** DELETE …/lessons/{lessonId}: the lessons after it move up; a published course keeps at least one. */
  async remove(actor: UserActor, courseId: string, lessonId: string) {
    return this.deps.scope.transaction(async () => {
      await this.deps.editable.editable(actor, courseId);
      const course = await this.deps.courses.lock(courseId);
      const row = await this.deps.lessons.find(courseId, lessonId);
      if (!course || !row) throw notFound('Lesson');
      if (course.status === 'published' && (await this.deps.lessons.count(courseId)) === 1) {
        throw badRequest('A published course keeps at least one lesson: archive it instead');
      }
      await this.deps.lessons.delete(row);
      await this.deps.events.record(actor, 'course.lesson_deleted', {
        subject: { resource: 'course_lesson', id: lessonId },
        data: { course_id: courseId },
      });
      return { message: 'Lesson deleted' };
    });
  }

  /** PUT …/lessons/reorder: every lesson of the course once, in the new order. */
  async reorder(actor: UserActor, courseId: string, ids: string[]): Promise<LessonSummary[]> {
    return this.deps.scope.transaction(async () => {
      await this.deps.editable.editable(actor, courseId);
      await this.deps.courses.lock(courseId);
      const current = await this.deps.lessons.ofCourse(courseId);
      const known = new Set(current.map((row) => row.id));
      if (new Set(ids).size !== ids.length || ids.length !== known.size || ids.some((id) => !known.has(id))) {
        throw invalidField('lesson_ids', 'Name every lesson of the course exactly once', ids.join(','));
      }
      await this.deps.lessons.reorder(courseId, ids);
      await this.deps.events.record(actor, 'course.lessons_reordered', {
        subject: { resource: 'course', id: courseId },
        data: { lesson_ids: ids },
      });
      return (await this.deps.lessons.ofCourse(courseId)).map(toLessonSummary);
    });
  }

  /** POST /courses/{id}/enroll: a published free course; again: the same enrollment (created false). */
  async enroll(actor: UserActor, courseId: string): Promise<{ enrollment: Enrollment; created: boolean }> {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, courseId);
      if (isEnrolled(view)) {
        const row = await this.deps.enrollments.find(courseId, actor.id);
        if (row) {
          return { enrollment: toEnrollmentDto(row, percentOf(view.my_done_count, view.lesson_count)), created: false };
        }
      }
      if (view.status !== 'published') throw badRequest('Only a published course can be enrolled in');
      if (view.price_cents > 0) {
        throw new AppError('PURCHASE_REQUIRED', 'This course is sold through the marketplace: buy its product');
      }
      const { row, created } = await this.deps.enrollments.enroll(courseId, actor.id);
      if (created) {
        await this.deps.events.record(actor, 'course.enrolled', {
          subject: { resource: 'course', id: courseId },
          data: { course_id: courseId, instructor_id: view.instructor_id },
        });
      }
      return { enrollment: toEnrollmentDto(row, 0), created };
    });
  }

  /** DELETE /courses/{id}/enroll: leaves a free course with its progress. */
  async leave(actor: UserActor, courseId: string) {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, courseId);
      if (!isEnrolled(view)) throw new AppError('NOT_ENROLLED', 'You are not enrolled in this course');
      if (view.price_cents > 0) throw badRequest('A bought course is left by a refund of its order');
      await this.deps.enrollments.remove(courseId, actor.id);
      await this.deps.events.record(actor, 'course.left', {
        subject: { resource: 'course', id: courseId },
        data: { course_id: courseId },
      });
      return { message: 'You left the course' };
    });
  }
}

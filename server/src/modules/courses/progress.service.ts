import { randomBytes } from 'node:crypto';
import type { Certificate, CourseProgress } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { PeopleReader } from '../users/people-reader.js';
import { renderCertificatePdf } from './certificate-pdf.js';
import type { CourseViews } from './course-views.js';
import { isEnrolled } from './courses.policy.js';
import type { CourseView } from './courses.repository.js';
import { percentOf, type EnrollmentsRepository } from './enrollments.repository.js';
import type { LessonsRepository } from './lessons.repository.js';

export interface ProgressServiceDeps {
  scope: DbScope;
  events: EventBus;
  lessons: LessonsRepository;
  enrollments: EnrollmentsRepository;
  views: CourseViews;
  /** The users area's names: the learner and the instructor on a certificate. */
  people: Pick<PeopleReader, 'names'>;
  publicBaseUrl: string;
}

/** A verification code: RIFF- and three groups of four unambiguous characters (about 60 bits). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
function certificateCode(): string {
  const bytes = randomBytes(12);
  const chars = [...bytes].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]);
  return `RIFF-${chars.slice(0, 4).join('')}-${chars.slice(4, 8).join('')}-${chars.slice(8, 12).join('')}`;
}

const notEnrolled = () => new AppError('NOT_ENROLLED', 'Only the course’s learners have progress in it');

/** A learner's progress through a course, its completion and the certificate. */
export class ProgressService {
  constructor(private readonly deps: ProgressServiceDeps) {}

  private async enrolledView(actor: UserActor, courseId: string): Promise<CourseView> {
    const view = await this.deps.views.required(actor, courseId);
    if (!isEnrolled(view)) throw notEnrolled();
    return view;
  }

  private async progressOf(courseId: string, userId: string): Promise<CourseProgress> {
    const [done, total, enrollment] = await Promise.all([
      this.deps.enrollments.completedLessonIds(courseId, userId),
      this.deps.lessons.count(courseId),
      this.deps.enrollments.find(courseId, userId),
    ]);
    return {
      completed_lesson_ids: done,
      progress_percent: percentOf(done.length, total),
      completed_at: enrollment?.completed_at?.toISOString() ?? null,
    };
  }

  /** GET /courses/{id}/progress. */
  async progress(actor: UserActor, courseId: string): Promise<CourseProgress> {
    await this.enrolledView(actor, courseId);
    return this.progressOf(courseId, actor.id);
  }

  /**
   * POST …/complete (done: true) or DELETE (done: false). The enrollment is completed when every
   * lesson is (event course.completed, once per completion); an undo clears completed_at.
   */
  async mark(actor: UserActor, courseId: string, lessonId: string, done: boolean): Promise<CourseProgress> {
    return this.deps.scope.transaction(async () => {
      const view = await this.enrolledView(actor, courseId);
      const lesson = await this.deps.lessons.find(courseId, lessonId);
      if (!lesson) throw notFound('Lesson');
      const enrollment = await this.deps.enrollments.lock(courseId, actor.id);
      if (!enrollment) throw notEnrolled();
      if (done) await this.deps.enrollments.markComplete(courseId, actor.id, lessonId);
      else await this.deps.enrollments.unmarkComplete(actor.id, lessonId);
      const completed = await this.deps.enrollments.completedLessonIds(courseId, actor.id);
      const total = await this.deps.lessons.count(courseId);
      const all = total > 0 && completed.length === total;
      if (all && !enrollment.completed_at) {
        const completedAt = new Date();
        await this.deps.enrollments.setCompletion(courseId, actor.id, {
          completed_at: completedAt,
          ...(enrollment.certificate_code ? {} : { certificate_code: certificateCode() }),
        });
        await this.deps.events.record(actor, 'course.completed', {
          subject: { resource: 'course', id: courseId },
          data: { course_id: courseId, instructor_id: view.instructor_id, completed_at: completedAt.toISOString() },
        });
      } else if (!all && enrollment.completed_at) {
        await this.deps.enrollments.setCompletion(courseId, actor.id, { completed_at: null });
      }
      return this.progressOf(courseId, actor.id);
    });
  }

  /** What a certificate of this code says, or undefined. */
  private async certificateOf(code: string): Promise<Certificate | undefined> {
    const row = await this.deps.enrollments.certificate(code);
    // an undo clears completed_at: the certificate stands again, with the same code, once the course is complete again
    if (!row?.certificate_code || !row.completed_at) return undefined;
    const names = await this.deps.people.names([row.user_id, row.instructor_id]);
    return {
      code: row.certificate_code,
      learner_name: names.get(row.user_id)?.username ?? 'a former learner',
      course_title: row.title,
      instructor_name: names.get(row.instructor_id)?.username ?? 'a former instructor',
      completed_at: row.completed_at.toISOString(),
    };
  }

  /** GET /courses/{id}/certificate: the PDF, for learners who completed the course. */
  async certificatePdf(actor: UserActor, courseId: string): Promise<{ pdf: Buffer; code: string }> {
    const view = await this.enrolledView(actor, courseId);
    if (!view.my_completed_at || !view.my_certificate_code) {
      throw new AppError('NOT_COMPLETED', 'Complete every lesson of the course for its certificate');
    }
    const certificate = await this.certificateOf(view.my_certificate_code);
    if (!certificate) throw notFound('Certificate');
    const verifyUrl = `${this.deps.publicBaseUrl}/api/v1/certificates/${certificate.code}`;
    return { pdf: await renderCertificatePdf(certificate, verifyUrl), code: certificate.code };
  }

  /** GET /certificates/{code}: public. */
  async verify(_actor: Actor, code: string): Promise<Certificate> {
    const certificate = await this.certificateOf(code.toUpperCase());
    if (!certificate) throw notFound('Certificate');
    return certificate;
  }
}

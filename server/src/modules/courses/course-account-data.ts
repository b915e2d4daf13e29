import type { ExportedCourseEnrollment, ExportedCourseTaught } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { AccountDataRepository } from './account-data.repository.js';

export interface CourseAccountDataDeps {
  scope: DbScope;
  rows: AccountDataRepository;
  images: Pick<AvatarsService, 'discardImages'>;
}

/**
 * What the education area holds of an account: the courses it teaches and its enrollments. On
 * erasure, a course others are enrolled in is archived and stays readable by them; the others go
 * (with their covers); the account's own enrollments, progress and reviews go.
 */
export class CourseAccountData {
  constructor(private readonly deps: CourseAccountDataDeps) {}

  async exportFor(owner: UserActor): Promise<{
    courses_taught: ExportedCourseTaught[];
    course_enrollments: ExportedCourseEnrollment[];
  }> {
    const { rows } = this.deps;
    const taught = await rows.taught(owner.id);
    const lessons = await rows.lessonsOf(taught.map((course) => course.id));
    const enrollments = await rows.enrollmentsOf(owner.id);
    const progress = await rows.progressOf(owner.id);
    const reviews = await rows.reviewsOf(owner.id);
    return {
      courses_taught: taught.map((course) => ({
        id: course.id,
        title: course.title,
        slug: course.slug,
        summary: course.summary,
        description: course.description,
        status: course.status,
        price_cents: course.price_cents,
        currency: course.currency,
        lessons: lessons
          .filter((lesson) => lesson.course_id === course.id)
          .map((lesson) => ({
            id: lesson.id,
            title: lesson.title,
            kind: lesson.kind,
            position: lesson.position,
            body: lesson.body,
          })),
        enrollment_count: Number(course.enrollment_count),
        created_at: course.created_at.toISOString(),
        published_at: course.published_at?.toISOString() ?? null,
      })),
      course_enrollments: enrollments.map((enrollment) => {
        const review = reviews.find((row) => row.course_id === enrollment.course_id);
        return {
          course_id: enrollment.course_id,
          course_title: enrollment.title,
          enrolled_at: enrollment.enrolled_at.toISOString(),
          completed_at: enrollment.completed_at?.toISOString() ?? null,
          certificate_code: enrollment.certificate_code,
          completed_lesson_ids: progress
            .filter((row) => row.course_id === enrollment.course_id)
            .map((row) => row.lesson_id),
          review: review ? { rating: review.rating, comment: review.comment } : null,
        };
      }),
    };
  }

  async eraseFor(owner: UserActor) {
    return this.deps.scope.transaction(async () => {
      const { rows } = this.deps;
      // the learner's side first: their enrollments (progress goes with them) and reviews
      const removedReviews = await rows.deleteReviewsOf(owner.id);
      const removedEnrollments = await rows.deleteEnrollmentsOf(owner.id);
      let archived = 0;
      const covers: string[] = [];
      const gone: string[] = [];
      for (const course of await rows.taught(owner.id)) {
        if (Number(course.enrollment_count) > 0) {
          if (course.status !== 'archived') await rows.archive(course.id);
          archived++;
        } else {
          gone.push(course.id);
          for (const key of [course.cover_large_key, course.cover_small_key]) if (key) covers.push(key);
        }
      }
      await rows.deleteCourses(gone);
      if (covers.length > 0) this.deps.scope.afterCommit(() => this.deps.images.discardImages(covers));
      return {
        archived_courses: archived,
        removed_courses: gone.length,
        removed_course_enrollments: removedEnrollments,
        removed_course_reviews: removedReviews,
      };
    });
  }
}

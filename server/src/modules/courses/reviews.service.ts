import {
  COURSE_REVIEW_MIN_PROGRESS,
  type CourseReview,
  type CreateCourseReviewRequest,
  type PaginationQuery,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { CourseViews } from './course-views.js';
import { canDeleteReview, isEnrolled } from './courses.policy.js';
import type { ReviewRow } from './courses.tables.js';
import { percentOf } from './enrollments.repository.js';
import type { ReviewsRepository } from './reviews.repository.js';

export interface ReviewsServiceDeps {
  scope: DbScope;
  events: EventBus;
  reviews: ReviewsRepository;
  views: CourseViews;
  /** The reviewers' profiles. */
  people: Pick<PeopleReader, 'profiles'>;
}

/** Reviews of a course by its learners who went far enough into it. */
export class ReviewsService {
  constructor(private readonly deps: ReviewsServiceDeps) {}

  private async dtos(actor: Actor, rows: ReviewRow[]): Promise<CourseReview[]> {
    const profiles = await this.deps.people.profiles([...new Set(rows.map((row) => row.user_id))], actor);
    return rows.map((row) => ({
      id: row.id,
      course_id: row.course_id,
      user: profiles.get(row.user_id) ?? null,
      rating: row.rating,
      comment: row.comment,
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
  }

  /** POST /courses/{id}/reviews: a current learner with enough progress; a second replaces the first. */
  async write(actor: UserActor, courseId: string, body: CreateCourseReviewRequest) {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, courseId);
      if (!isEnrolled(view)) throw new AppError('NOT_ENROLLED', 'Only the course’s learners review it');
      if (percentOf(view.my_done_count, view.lesson_count) < COURSE_REVIEW_MIN_PROGRESS) {
        throw new AppError(
          'NOT_ENOUGH_PROGRESS',
          `Complete at least ${COURSE_REVIEW_MIN_PROGRESS} % of the course to review it`,
        );
      }
      const { row, created } = await this.deps.reviews.upsert(courseId, actor.id, body.rating, body.comment ?? null);
      await this.deps.events.record(actor, 'course.reviewed', {
        subject: { resource: 'course_review', id: row.id },
        data: { course_id: courseId, rating: row.rating },
      });
      const [review] = await this.dtos(actor, [row]);
      return { review: review!, created };
    });
  }

  /** GET /courses/{id}/reviews. */
  async list(actor: Actor, courseId: string, query: PaginationQuery) {
    await this.deps.views.required(actor, courseId);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.reviews.page(courseId, window);
    return { reviews: await this.dtos(actor, rows), pagination: paginate(window, total) };
  }

  /** DELETE /courses/{id}/reviews/{reviewId}: its author and staff. */
  async remove(actor: UserActor, courseId: string, reviewId: string) {
    return this.deps.scope.transaction(async () => {
      await this.deps.views.required(actor, courseId);
      const row = await this.deps.reviews.find(courseId, reviewId);
      if (!row) throw notFound('Review');
      if (!canDeleteReview(actor, row.user_id)) throw forbidden('Only its author and staff delete a review');
      await this.deps.reviews.delete(reviewId);
      await this.deps.events.record(actor, 'course.review_deleted', {
        subject: { resource: 'course_review', id: reviewId },
        data: { course_id: courseId },
        userId: row.user_id,
      });
      return { message: 'Review deleted' };
    });
  }
}

import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';

/** The SQL of the account export and erasure: one user's courses, enrollments, progress and reviews. */
export class AccountDataRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The courses a user teaches, oldest first, with their current enrollments counted. */
  async taught(userId: string) {
    return this.db
      .selectFrom('courses as c')
      .selectAll('c')
      .select(
        sql<number>`(select count(*)::int from course_enrollments e where e.course_id = c.id)`.as('enrollment_count'),
      )
      .where('c.instructor_id', '=', userId)
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();
  }

  async lessonsOf(courseIds: readonly string[]) {
    if (courseIds.length === 0) return [];
    return this.db
      .selectFrom('course_lessons')
      .selectAll()
      .where('course_id', 'in', [...courseIds])
      .orderBy('course_id')
      .orderBy('position')
      .execute();
  }

  async enrollmentsOf(userId: string) {
    return this.db
      .selectFrom('course_enrollments as e')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .selectAll('e')
      .select('c.title')
      .where('e.user_id', '=', userId)
      .orderBy('e.enrolled_at')
      .orderBy('e.course_id')
      .execute();
  }

  async progressOf(userId: string) {
    return this.db
      .selectFrom('course_lesson_progress as p')
      .innerJoin('course_lessons as l', 'l.id', 'p.lesson_id')
      .select(['p.course_id', 'p.lesson_id'])
      .where('p.user_id', '=', userId)
      .orderBy('p.course_id')
      .orderBy('l.position')
      .execute();
  }

  async reviewsOf(userId: string) {
    return this.db.selectFrom('course_reviews').selectAll().where('user_id', '=', userId).execute();
  }

  async deleteReviewsOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('course_reviews').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The user's enrollments; their progress goes with them (the foreign key cascades). */
  async deleteEnrollmentsOf(userId: string): Promise<number> {
    const result = await this.db.deleteFrom('course_enrollments').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async archive(courseId: string): Promise<void> {
    await this.db
      .updateTable('courses')
      .set({ status: 'archived', updated_at: new Date() })
      .where('id', '=', courseId)
      .execute();
  }

  async deleteCourses(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .deleteFrom('courses')
      .where('id', 'in', [...ids])
      .execute();
  }
}

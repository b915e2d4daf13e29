import type { DbScope } from '../../platform/db/transactions.js';
import type { EnrollmentRow } from './courses.tables.js';

/** All SQL of enrollments. */
export class EnrollmentsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async find(courseId: string, userId: string): Promise<EnrollmentRow | undefined> {
    return this.db
      .selectFrom('course_enrollments')
      .selectAll()
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  /** Enrolls the user unless they are; the row and whether it is new. */
  async enroll(courseId: string, userId: string): Promise<{ row: EnrollmentRow; created: boolean }> {
    const inserted = await this.db
      .insertInto('course_enrollments')
      .values({ course_id: courseId, user_id: userId })
      .onConflict((oc) => oc.columns(['course_id', 'user_id']).doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { row: inserted, created: true };
    const row = await this.find(courseId, userId);
    if (!row) throw new Error('enrollment vanished');
    return { row, created: false };
  }

  async remove(courseId: string, userId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('course_enrollments')
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async count(courseId: string): Promise<number> {
    const row = await this.db
      .selectFrom('course_enrollments')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The lessons the learner completed, in course order. */
  async completedLessonIds(courseId: string, userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('course_lesson_progress as p')
      .innerJoin('course_lessons as l', 'l.id', 'p.lesson_id')
      .select('p.lesson_id')
      .where('p.course_id', '=', courseId)
      .where('p.user_id', '=', userId)
      .orderBy('l.position')
      .execute();
    return rows.map((row) => row.lesson_id);
  }

  async markComplete(courseId: string, userId: string, lessonId: string): Promise<void> {
    await this.db
      .insertInto('course_lesson_progress')
      .values({ course_id: courseId, user_id: userId, lesson_id: lessonId })
      .onConflict((oc) => oc.columns(['user_id', 'lesson_id']).doNothing())
      .execute();
  }

  async unmarkComplete(userId: string, lessonId: string): Promise<void> {
    await this.db
      .deleteFrom('course_lesson_progress')
      .where('user_id', '=', userId)
      .where('lesson_id', '=', lessonId)
      .execute();
  }

  /** The enrollment locked until the transaction ends: one learner's progress changes one at a time. */
  async lock(courseId: string, userId: string): Promise<EnrollmentRow | undefined> {
    return this.db
      .selectFrom('course_enrollments')
      .selectAll()
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
  }

  async setCompletion(
    courseId: string,
    userId: string,
    changes: { completed_at: Date | null; certificate_code?: string },
  ): Promise<void> {
    await this.db
      .updateTable('course_enrollments')
      .set(changes)
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .execute();
  }

  /** A certificate by its code: the enrollment with the course's title and the two people's ids. */
  async certificate(code: string) {
    return this.db
      .selectFrom('course_enrollments as e')
      .innerJoin('courses as c', 'c.id', 'e.course_id')
      .select(['e.certificate_code', 'e.user_id', 'e.completed_at', 'e.course_id', 'c.title', 'c.instructor_id'])
      .where('e.certificate_code', '=', code)
      .executeTakeFirst();
  }
}

/** Completed lessons over all lessons, as an integer rounded down (0 for a course without lessons). */
export const percentOf = (done: number, total: number) => (total === 0 ? 0 : Math.floor((done * 100) / total));

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
}

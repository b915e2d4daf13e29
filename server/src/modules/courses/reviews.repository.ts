import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ReviewRow } from './courses.tables.js';

/** All SQL of course reviews. */
export class ReviewsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async find(courseId: string, id: string): Promise<ReviewRow | undefined> {
    return this.db
      .selectFrom('course_reviews')
      .selectAll()
      .where('course_id', '=', courseId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Writes the learner's review (a second replaces the first); whether it is new. */
  async upsert(
    courseId: string,
    userId: string,
    rating: number,
    comment: string | null,
  ): Promise<{ row: ReviewRow; created: boolean }> {
    const existing = await this.db
      .selectFrom('course_reviews')
      .select('id')
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const row = await this.db
      .insertInto('course_reviews')
      .values({ course_id: courseId, user_id: userId, rating, comment })
      .onConflict((oc) => oc.columns(['course_id', 'user_id']).doUpdateSet({ rating, comment, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return { row, created: !existing };
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('course_reviews').where('id', '=', id).execute();
  }

  /** A page of a course's reviews, latest first. */
  async page(courseId: string, window: { limit: number; offset: number }) {
    const query = this.db.selectFrom('course_reviews').where('course_id', '=', courseId);
    const rows = await query
      .selectAll()
      .select(totalCount())
      .orderBy('updated_at', 'desc')
      .orderBy('id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const count = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      return Number(count.count);
    });
  }
}

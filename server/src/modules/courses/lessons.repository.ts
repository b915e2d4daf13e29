import { sql, type Insertable, type Updateable } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CourseLessonsTable, LessonRow } from './courses.tables.js';

/** All SQL of lessons: in course order by a dense position from 1. */
export class LessonsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async ofCourse(courseId: string): Promise<LessonRow[]> {
    return this.db
      .selectFrom('course_lessons')
      .selectAll()
      .where('course_id', '=', courseId)
      .orderBy('position')
      .orderBy('id')
      .execute();
  }

  async find(courseId: string, id: string): Promise<LessonRow | undefined> {
    return this.db
      .selectFrom('course_lessons')
      .selectAll()
      .where('course_id', '=', courseId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async count(courseId: string): Promise<number> {
    const row = await this.db
      .selectFrom('course_lessons')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('course_id', '=', courseId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insert(values: Insertable<CourseLessonsTable>): Promise<LessonRow> {
    return this.db.insertInto('course_lessons').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: string, changes: Updateable<CourseLessonsTable>): Promise<void> {
    await this.db
      .updateTable('course_lessons')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Removes a lesson; those after it move up one place. */
  async delete(lesson: LessonRow): Promise<void> {
    await this.db.deleteFrom('course_lessons').where('id', '=', lesson.id).execute();
    await this.db
      .updateTable('course_lessons')
      .set({ position: sql`position - 1` })
      .where('course_id', '=', lesson.course_id)
      .where('position', '>', lesson.position)
      .execute();
  }

  /** Gives the lessons positions 1, 2, … in the order of `ids` (every lesson of the course). */
  async reorder(courseId: string, ids: readonly string[]): Promise<void> {
    for (const [index, id] of ids.entries()) {
      await this.db
        .updateTable('course_lessons')
        .set({ position: index + 1 })
        .where('course_id', '=', courseId)
        .where('id', '=', id)
        .execute();
    }
  }
}

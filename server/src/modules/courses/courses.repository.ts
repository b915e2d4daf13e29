import { sql, type Insertable, type SqlBool, type Updateable } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import { moderationAllowsSql } from '../../platform/access/moderation.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { searchDoc, textQuery } from '../../platform/search/text-search.js';
import type { CourseRow, CoursesTable } from './courses.tables.js';

/** A course with its counts and the caller's enrollment, as one caller reads it. */
export type CourseView = CourseRow & {
  lesson_count: number;
  total_duration_seconds: number;
  enrollment_count: number;
  my_enrolled_at: Date | null;
  my_completed_at: Date | null;
  my_certificate_code: string | null;
  /** The lessons the caller completed (0 when not enrolled). */
  my_done_count: number;
  avg_rating: number | null;
  review_count: number;
};

export interface Paged<T> {
  rows: T[];
  total: number;
}

export interface CourseFilter {
  q?: string;
  topic?: string;
  level?: string;
  language?: string;
  instructorId?: string;
  free?: boolean;
  sort: 'popular' | 'newest' | 'rating';
}

/** All SQL of courses themselves (lessons: lessons.repository.ts; enrollments: enrollments.repository.ts). */
export class CoursesRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private viewSelect(userId: string | null) {
    return this.db
      .selectFrom('courses as c')
      .selectAll('c')
      .select([
        sql<number>`(select count(*)::int from course_lessons l where l.course_id = c.id)`.as('lesson_count'),
        sql<number>`(select coalesce(sum(l.duration_seconds), 0)::int from course_lessons l where l.course_id = c.id)`.as(
          'total_duration_seconds',
        ),
        sql<number>`(select count(*)::int from course_enrollments e where e.course_id = c.id)`.as('enrollment_count'),
        sql<Date | null>`(select e.enrolled_at from course_enrollments e where e.course_id = c.id and e.user_id = ${userId})`.as(
          'my_enrolled_at',
        ),
        sql<Date | null>`(select e.completed_at from course_enrollments e where e.course_id = c.id and e.user_id = ${userId})`.as(
          'my_completed_at',
        ),
        sql<
          string | null
        >`(select e.certificate_code from course_enrollments e where e.course_id = c.id and e.user_id = ${userId})`.as(
          'my_certificate_code',
        ),
        sql<number>`(select count(*)::int from course_lesson_progress p where p.course_id = c.id and p.user_id = ${userId})`.as(
          'my_done_count',
        ),
        sql<
          number | null
        >`(select round(avg(r.rating)::numeric, 2)::float8 from course_reviews r where r.course_id = c.id)`.as(
          'avg_rating',
        ),
        sql<number>`(select count(*)::int from course_reviews r where r.course_id = c.id)`.as('review_count'),
      ]);
  }

  async view(id: string, userId: string | null): Promise<CourseView | undefined> {
    return this.viewSelect(userId).where('c.id', '=', id).executeTakeFirst();
  }

  async find(id: string): Promise<CourseRow | undefined> {
    return this.db.selectFrom('courses').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The course row locked until the transaction ends: its status moves and lessons one at a time. */
  async lock(id: string): Promise<CourseRow | undefined> {
    return this.db.selectFrom('courses').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async insert(values: Insertable<CoursesTable>): Promise<CourseRow> {
    return this.db.insertInto('courses').values(values).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: string, changes: Updateable<CoursesTable>): Promise<void> {
    await this.db
      .updateTable('courses')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('courses').where('id', '=', id).execute();
  }

  /** Serialises the slugs made from one base. */
  async lockSlug(base: string): Promise<void> {
    await sql`select pg_advisory_xact_lock(hashtext(${`course-slug:${base}`}))`.execute(this.db);
  }

  /** Slugs taken equal to `base` or `base-N`. */
  async slugsLike(base: string, exceptId?: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('courses')
      .select('slug')
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base.replace(/[\\%_]/g, '\\$&')}-%`)]))
      .$if(exceptId !== undefined, (query) => query.where('id', '!=', exceptId!))
      .execute();
    return rows.map((row) => row.slug);
  }

  /** A page of the catalogue: published courses moderation lets the caller see, filtered and sorted. */
  async catalogue(actor: Actor, filter: CourseFilter, window: { limit: number; offset: number }) {
    const text = filter.q ? textQuery(filter.q) : undefined;
    const doc = searchDoc(sql.ref('c.title'), sql.ref('c.summary'), sql.ref('c.topics_text'));
    let query = this.viewSelect(actor.id)
      .where('c.status', '=', 'published')
      .where(moderationAllowsSql(actor, 'c', 'instructor_id'));
    if (text) query = query.where(text.matches(doc));
    if (filter.topic) query = query.where(sql<SqlBool>`c.topics @> array[${filter.topic.toLowerCase()}]::text[]`);
    if (filter.level) query = query.where('c.level', '=', filter.level as CourseRow['level']);
    if (filter.language) query = query.where(sql<SqlBool>`lower(c.language) = lower(${filter.language})`);
    if (filter.instructorId) query = query.where('c.instructor_id', '=', filter.instructorId);
    if (filter.free !== undefined) query = query.where('c.price_cents', filter.free ? '=' : '>', 0);
    let ordered = text
      ? query.orderBy(text.tier([sql.ref('c.title')], doc)).orderBy(text.closeness(doc), 'desc')
      : query;
    if (filter.sort === 'popular') {
      ordered = ordered.orderBy(sql`(select count(*) from course_enrollments e where e.course_id = c.id)`, 'desc');
    } else if (filter.sort === 'rating') {
      // best average first, unrated last
      ordered = ordered.orderBy(
        sql`(select avg(r.rating) from course_reviews r where r.course_id = c.id) desc nulls last`,
      );
    }
    const rows = await ordered
      .select(totalCount())
      .orderBy('c.published_at', 'desc')
      .orderBy('c.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const count = await query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count.count);
    });
  }

  /** A page of the courses a user teaches, every status, newest first. */
  async teaching(actor: Actor, userId: string, window: { limit: number; offset: number }) {
    const query = this.viewSelect(actor.id).where('c.instructor_id', '=', userId);
    const rows = await query
      .select(totalCount())
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const count = await query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count.count);
    });
  }

  /** A page of the courses a user is enrolled in (not drafts), most recently enrolled first. */
  async enrolled(actor: Actor, userId: string, window: { limit: number; offset: number }) {
    const query = this.viewSelect(userId)
      .innerJoin('course_enrollments as me', (join) =>
        join.onRef('me.course_id', '=', 'c.id').on('me.user_id', '=', userId),
      )
      .where('c.status', '!=', 'draft')
      .where(moderationAllowsSql(actor, 'c', 'instructor_id'));
    const rows = await query
      .select(totalCount())
      .orderBy('me.enrolled_at', 'desc')
      .orderBy('c.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () => {
      const count = await query
        .clearSelect()
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(count.count);
    });
  }
}

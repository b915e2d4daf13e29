import {
  type Course,
  type CourseListQuery,
  type CourseStatus,
  type CreateCourseRequest,
  type PaginationQuery,
  type UpdateCourseRequest,
  type AvatarSize,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { removedContent } from '../../platform/access/moderation.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { AvatarsService } from '../media/avatars.service.js';
import { firstFreeSlug, slugify } from '../users/slug.js';
import type { CourseViews } from './course-views.js';
import { toCents } from './courses.mapper.js';
import { canEditCourse, mayTeach } from './courses.policy.js';
import type { CoursesRepository, CourseView } from './courses.repository.js';
import type { EnrollmentsRepository } from './enrollments.repository.js';
import type { LessonsRepository } from './lessons.repository.js';

export interface CoursesServiceDeps {
  scope: DbScope;
  events: EventBus;
  courses: CoursesRepository;
  lessons: LessonsRepository;
  enrollments: EnrollmentsRepository;
  views: CourseViews;
  /** The media area's avatar images: a course's cover is made, stored and served as an avatar. */
  images: Pick<AvatarsService, 'storeImage' | 'openImage' | 'discardImages'>;
}

/** The status moves a course may make; any other is 400 INVALID_TRANSITION. */
const MOVES: Record<CourseStatus, readonly CourseStatus[]> = {
  draft: ['published'],
  published: ['archived'],
  archived: ['published'],
};

/** Topics in lower case, without repeats, in their order. */
const normalTopics = (topics: readonly string[]) => [...new Set(topics.map((topic) => topic.toLowerCase()))];

/** Courses themselves: creation by creators, the catalogue, one course, edits and status moves, deletion, cover. */
export class CoursesService {
  constructor(private readonly deps: CoursesServiceDeps) {}

  private async uniqueSlug(title: string, exceptId?: string): Promise<string> {
    const base = slugify(title, 'course');
    await this.deps.courses.lockSlug(base);
    return firstFreeSlug(base, await this.deps.courses.slugsLike(base, exceptId));
  }

  /** POST /courses: creators and admins; a draft with the caller as its instructor. */
  async create(actor: UserActor, body: CreateCourseRequest): Promise<Course> {
    if (!mayTeach(actor)) throw forbidden('Only creators and admins may create courses');
    return this.deps.scope.transaction(async () => {
      const topics = normalTopics(body.topics ?? []);
      const row = await this.deps.courses.insert({
        instructor_id: actor.id,
        title: body.title,
        slug: await this.uniqueSlug(body.title),
        summary: body.summary ?? null,
        description: body.description ?? null,
        level: body.level ?? 'all',
        topics,
        topics_text: topics.join(' '),
        language: body.language ?? 'en',
        price_cents: toCents(body.price ?? 0),
        currency: body.currency ?? 'USD',
      });
      await this.deps.events.record(actor, 'course.created', {
        subject: { resource: 'course', id: row.id },
        data: { title: row.title, instructor_id: actor.id },
      });
      return this.deps.views.current(actor, row.id);
    });
  }

  /** GET /courses: published courses only. */
  async list(actor: Actor, query: CourseListQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.courses.catalogue(
      actor,
      {
        ...(query.q ? { q: query.q } : {}),
        ...(query.topic ? { topic: query.topic } : {}),
        ...(query.level ? { level: query.level } : {}),
        ...(query.language ? { language: query.language } : {}),
        ...(query.instructor_id ? { instructorId: query.instructor_id } : {}),
        ...(query.free !== undefined ? { free: query.free } : {}),
        sort: query.sort ?? 'popular',
      },
      window,
    );
    return { courses: await this.deps.views.dtos(actor, rows), pagination: paginate(window, total) };
  }

  /** GET /courses/teaching: the caller's own courses, every status. */
  async teaching(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.courses.teaching(actor, actor.id, window);
    return { courses: await this.deps.views.dtos(actor, rows), pagination: paginate(window, total) };
  }

  /** GET /courses/enrolled: the courses the caller is enrolled in. */
  async enrolled(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.courses.enrolled(actor, actor.id, window);
    return { courses: await this.deps.views.dtos(actor, rows), pagination: paginate(window, total) };
  }

  async get(actor: Actor, id: string): Promise<Course> {
    return this.deps.views.current(actor, id);
  }

  /** A course the caller may edit (instructor, admins); 404/403 otherwise; removed: 403. */
  async editable(actor: Actor, id: string): Promise<CourseView> {
    const view = await this.deps.views.required(actor, id);
    if (!canEditCourse(actor, view)) throw forbidden('Only the instructor may change the course');
    if (view.moderation_status === 'removed') throw removedContent();
    return view;
  }

  /** PUT /courses/{id}: fields and the status move, one at a time per course. */
  async update(actor: UserActor, id: string, body: UpdateCourseRequest): Promise<Course> {
    return this.deps.scope.transaction(async () => {
      await this.editable(actor, id);
      const row = await this.deps.courses.lock(id);
      if (!row) throw notFound('Course');
      const changes: Parameters<CoursesRepository['update']>[1] = {};
      if (body.title !== undefined && body.title !== row.title) {
        changes.title = body.title;
        changes.slug = await this.uniqueSlug(body.title, id);
      }
      if (body.summary !== undefined) changes.summary = body.summary;
      if (body.description !== undefined) changes.description = body.description;
      if (body.level !== undefined) changes.level = body.level;
      if (body.topics !== undefined) {
        const topics = normalTopics(body.topics);
        changes.topics = topics;
        changes.topics_text = topics.join(' ');
      }
      if (body.language !== undefined) changes.language = body.language;
      if (body.price !== undefined) changes.price_cents = toCents(body.price);
      if (body.currency !== undefined) changes.currency = body.currency;
      const move = body.status !== undefined && body.status !== row.status ? body.status : undefined;
      if (move) {
        if (!MOVES[row.status].includes(move)) {
          throw new AppError('INVALID_TRANSITION', `A course cannot move from ${row.status} to ${move}`);
        }
        if (move === 'published' && (await this.deps.lessons.count(id)) === 0) {
          throw new AppError('INVALID_TRANSITION', 'A course needs at least one lesson to be published');
        }
        changes.status = move;
        if (move === 'published') changes.published_at = new Date();
      }
      await this.deps.courses.update(id, changes);
      const fields = Object.keys(changes).filter((field) => field !== 'status' && field !== 'published_at');
      if (fields.length > 0) {
        await this.deps.events.record(actor, 'course.updated', {
          subject: { resource: 'course', id },
          data: { fields },
        });
      }
      if (move === 'published' || move === 'archived') {
        await this.deps.events.record(actor, move === 'published' ? 'course.published' : 'course.archived', {
          subject: { resource: 'course', id },
          data: { title: changes.title ?? row.title },
          userId: row.instructor_id,
        });
      }
      return this.deps.views.current(actor, id);
    });
  }

  /** DELETE /courses/{id}: a course with enrollments is archived instead, so its learners keep it. */
  async remove(actor: UserActor, id: string) {
    return this.deps.scope.transaction(async () => {
      await this.editable(actor, id);
      const row = await this.deps.courses.lock(id);
      if (!row) throw notFound('Course');
      if ((await this.deps.enrollments.count(id)) > 0) {
        if (row.status !== 'archived') {
          await this.deps.courses.update(id, { status: 'archived' });
          await this.deps.events.record(actor, 'course.archived', {
            subject: { resource: 'course', id },
            data: { title: row.title },
            userId: row.instructor_id,
          });
        }
        return { message: 'Course archived: its learners keep it' };
      }
      await this.deps.courses.delete(id);
      await this.deps.events.record(actor, 'course.deleted', {
        subject: { resource: 'course', id },
        data: { title: row.title },
        userId: row.instructor_id,
      });
      const covers = [row.cover_large_key, row.cover_small_key].filter((key): key is string => key !== null);
      if (covers.length > 0) this.deps.scope.afterCommit(() => this.deps.images.discardImages(covers));
      return { message: 'Course deleted' };
    });
  }

  /** PUT /courses/{id}/cover: both sizes stored; the replaced ones go once this commits. */
  async setCover(actor: UserActor, id: string, bytes: Buffer): Promise<Course> {
    await this.editable(actor, id);
    const stored = await this.deps.images.storeImage(id, bytes);
    try {
      return await this.deps.scope.transaction(async () => {
        const before = await this.editable(actor, id);
        await this.deps.courses.update(id, {
          cover_large_key: stored.large_key,
          cover_small_key: stored.small_key,
          cover_content_type: stored.content_type,
        });
        await this.deps.events.record(actor, 'course.updated', {
          subject: { resource: 'course', id },
          data: { fields: ['cover'] },
        });
        const old = [before.cover_large_key, before.cover_small_key].filter((key): key is string => key !== null);
        if (old.length > 0) this.deps.scope.afterCommit(() => this.deps.images.discardImages(old));
        return this.deps.views.current(actor, id);
      });
    } catch (error) {
      await this.deps.images.discardImages([stored.large_key, stored.small_key]);
      throw error;
    }
  }

  /** GET /courses/{id}/cover?size=: where the course is visible. */
  async cover(actor: Actor, id: string, size: AvatarSize) {
    const view = await this.deps.views.required(actor, id);
    const key = size === 128 ? view.cover_small_key : view.cover_large_key;
    if (!key || !view.cover_content_type) throw notFound('Cover');
    return { body: await this.deps.images.openImage(key), contentType: view.cover_content_type };
  }
}

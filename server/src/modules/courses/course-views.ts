import type { Course } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import { notFound } from '../../platform/errors/app-error.js';
import type { PeopleReader } from '../users/people-reader.js';
import { toCourseDto } from './courses.mapper.js';
import { canReadCourse } from './courses.policy.js';
import type { CoursesRepository, CourseView } from './courses.repository.js';

/** A course as one caller reaches it (canReadCourse), and as the contract shows it: one rule for every route. */
export class CourseViews {
  constructor(
    private readonly courses: CoursesRepository,
    private readonly people: Pick<PeopleReader, 'profiles'>,
    private readonly publicBaseUrl: string,
  ) {}

  async view(actor: Actor, id: string): Promise<CourseView | undefined> {
    const view = await this.courses.view(id, actor.id);
    return view && canReadCourse(actor, view) ? view : undefined;
  }

  /** The caller's view of the course, or 404. */
  async required(actor: Actor, id: string): Promise<CourseView> {
    const view = await this.view(actor, id);
    if (!view) throw notFound('Course');
    return view;
  }

  /** Courses as replies, their instructors' profiles read in one call. */
  async dtos(actor: Actor, views: CourseView[]): Promise<Course[]> {
    const profiles = await this.people.profiles([...new Set(views.map((view) => view.instructor_id))], actor);
    return views.map((view) => toCourseDto(view, profiles.get(view.instructor_id) ?? null, this.publicBaseUrl));
  }

  async dto(actor: Actor, view: CourseView): Promise<Course> {
    const [dto] = await this.dtos(actor, [view]);
    return dto!;
  }

  /** The caller's reply for the course now (after a change). */
  async current(actor: Actor, id: string): Promise<Course> {
    return this.dto(actor, await this.required(actor, id));
  }
}

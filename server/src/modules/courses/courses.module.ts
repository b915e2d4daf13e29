import './courses.events.js';
import type { RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CourseViews } from './course-views.js';
import { CoursesRepository } from './courses.repository.js';
import { coursesRoutes } from './courses.routes.js';
import { CoursesService } from './courses.service.js';
import { EnrollmentsRepository } from './enrollments.repository.js';
import { LessonsRepository } from './lessons.repository.js';
import { LessonsService } from './lessons.service.js';

export interface CoursesModuleDeps {
  /** The users area's read port: the instructors' profiles. */
  people: PeopleReader;
  /** The media area's avatar images: a course's cover is stored and served as an avatar. */
  images: Pick<AvatarsService, 'storeImage' | 'openImage' | 'discardImages'>;
}

export type CoursesModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { courses: CoursesService; lessons: LessonsService };
};

/** Education: courses by creators, their lessons, and enrollment. */
export function createCoursesModule(platform: Platform, deps: CoursesModuleDeps): CoursesModule {
  const { scope, events } = platform;
  const courses = new CoursesRepository(scope);
  const lessons = new LessonsRepository(scope);
  const enrollments = new EnrollmentsRepository(scope);
  const views = new CourseViews(courses, deps.people, platform.config.publicBaseUrl);
  const coursesService = new CoursesService({
    scope,
    events,
    courses,
    lessons,
    enrollments,
    views,
    images: deps.images,
  });
  const lessonsService = new LessonsService({
    scope,
    events,
    courses,
    lessons,
    enrollments,
    views,
    editable: coursesService,
  });
  return {
    name: 'courses',
    routes: { courses: coursesRoutes(coursesService, lessonsService) },
    eventHandlers: [],
    services: { courses: coursesService, lessons: lessonsService },
  };
}

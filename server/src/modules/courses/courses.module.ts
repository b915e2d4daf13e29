import './courses.events.js';
import type { Actor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { RiffModule } from '../../platform/module.js';
import type { Platform } from '../../platform/platform.js';
import type { AvatarsService } from '../media/avatars.service.js';
import type { PeopleReader } from '../users/people-reader.js';
import { AccountDataRepository } from './account-data.repository.js';
import { CourseAccountData } from './course-account-data.js';
import { createCourseModeration } from './course-moderation.js';
import { CourseViews } from './course-views.js';
import { CoursesRepository } from './courses.repository.js';
import { coursesRoutes } from './courses.routes.js';
import { CoursesService } from './courses.service.js';
import { EnrollmentsRepository } from './enrollments.repository.js';
import { LessonsRepository } from './lessons.repository.js';
import { LessonsService } from './lessons.service.js';
import { ProgressService } from './progress.service.js';
import { ReviewsRepository } from './reviews.repository.js';
import { ReviewsService } from './reviews.service.js';

export interface CoursesModuleDeps {
  /** The users area's read port: the instructors' profiles. */
  people: PeopleReader;
  /** The media area's avatar images: a course's cover is stored and served as an avatar. */
  images: Pick<AvatarsService, 'storeImage' | 'openImage' | 'discardImages'>;
}

export type CoursesModule = RiffModule & {
  /** Its courses' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** A course's title and instructor, whoever asks: for notifications. */
  courseFacts(id: string): Promise<{ title: string; instructorId: string } | undefined>;
  /** The course if this caller may see it (the course's one rule): for notifications and reports. */
  courseFor(actor: Actor, id: string): Promise<unknown>;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { courses: CoursesService; lessons: LessonsService; progress: ProgressService; reviews: ReviewsService };
};

/** Education: courses by creators, their lessons, enrollment, progress and certificates. */
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
  const progressService = new ProgressService({
    scope,
    events,
    lessons,
    enrollments,
    views,
    people: deps.people,
    publicBaseUrl: platform.config.publicBaseUrl,
  });
  const reviewsService = new ReviewsService({
    scope,
    events,
    reviews: new ReviewsRepository(scope),
    views,
    people: deps.people,
  });
  const accountData = new CourseAccountData({ scope, rows: new AccountDataRepository(scope), images: deps.images });
  return {
    name: 'courses',
    routes: {
      courses: coursesRoutes({
        courses: coursesService,
        lessons: lessonsService,
        progress: progressService,
        reviews: reviewsService,
      }),
    },
    eventHandlers: [],
    accountData: {
      export: (owner) => accountData.exportFor(owner),
      erase: (owner) => accountData.eraseFor(owner),
    },
    moderation: createCourseModeration(scope, platform.clock),
    courseFacts: async (id) => {
      const row = await courses.find(id);
      return row && { title: row.title, instructorId: row.instructor_id };
    },
    courseFor: (actor, id) => views.view(actor, id),
    services: { courses: coursesService, lessons: lessonsService, progress: progressService, reviews: reviewsService },
  };
}

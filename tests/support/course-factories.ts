import type { Course, CreateCourseRequest, Lesson } from '@riff/contract';
import { createUser, type TestUser, type UserOverrides } from './factories.js';
import type { TestServer } from './test-server.js';
import { expectStatus, typedApi } from './typed-api.js';

/** A signed-in user who took the creator role as users take it (POST /users/me/upgrade-creator). */
export async function createCreator(server: TestServer, overrides: UserOverrides = {}): Promise<TestUser> {
  const user = await createUser(server, overrides);
  expectStatus(await user.api.users.upgradeCreator(), 200);
  return user;
}

export interface CourseOptions extends Partial<CreateCourseRequest> {
  /** Text lessons added through POST /courses/{id}/lessons (default 0; publishing needs one). */
  lessons?: number;
  /** Published once its lessons are in (needs lessons ≥ 1). */
  publish?: boolean;
}

/** A course of `instructor` made through the API, with its lessons, as the instructor reads it. */
export async function createCourse(
  server: TestServer,
  instructor: { token: string },
  options: CourseOptions = {},
): Promise<{ course: Course; lessons: Lesson[] }> {
  const api = typedApi(server, { token: instructor.token });
  const { lessons: lessonCount = options.publish ? 1 : 0, publish, ...fields } = options;
  const created = expectStatus(
    await api.courses.create({ body: { title: `Course ${Math.random().toString(36).slice(2, 10)}`, ...fields } }),
    201,
  ).body.data.course;
  const lessons: Lesson[] = [];
  for (let n = 1; n <= lessonCount; n++) {
    lessons.push(
      expectStatus(
        await api.courses.createLesson({
          params: { id: created.id },
          body: { title: `Lesson ${n}`, kind: 'text', body: `The text of lesson ${n}` },
        }),
        201,
      ).body.data.lesson,
    );
  }
  if (!publish)
    return {
      course: expectStatus(await api.courses.get({ params: { id: created.id } }), 200).body.data.course,
      lessons,
    };
  const course = expectStatus(
    await api.courses.update({ params: { id: created.id }, body: { status: 'published' } }),
    200,
  ).body.data.course;
  return { course, lessons };
}

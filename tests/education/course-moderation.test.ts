import { describe, expect, it } from 'vitest';
import { createCourse, createCreator } from '../support/course-factories.js';
import { createUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

const errorOf = (reply: { status: number; body: unknown }): [number, string] => [
  reply.status,
  (reply.body as { error: { code: string } }).error.code,
];

describe('courses are reportable and moderated', () => {
  it('a hidden course is, for everyone but its instructor and staff, as if deleted; a removed one cannot be edited', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const staff = await createModerator(suite.server);
    const { course, lessons } = await createCourse(suite.server, instructor, { lessons: 1, publish: true });
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);

    const report = await suite.http.post('/reports', {
      token: learner.token,
      body: { target_type: 'course', target_id: course.id, reason: 'spam' },
    });
    expect(report.status, report.text).toBe(201);
    const own = await suite.http.post('/reports', {
      token: instructor.token,
      body: { target_type: 'course', target_id: course.id, reason: 'spam' },
    });
    expect(own.status).toBe(400);

    const hide = await suite.http.post(`/moderation/content/course/${course.id}/hide`, {
      token: staff.token,
      body: { note: 'spam' },
    });
    expect(hide.status, hide.text).toBe(200);
    for (const caller of [learner.api, suite.api]) {
      expect(errorOf(await caller.courses.get({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
      expect(errorOf(await caller.courses.lessons({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
      expect(errorOf(await caller.courses.lesson({ params: { id: course.id, lessonId: lessons[0]!.id } }))).toEqual([
        404,
        'NOT_FOUND',
      ]);
      expect(errorOf(await caller.courses.listReviews({ params: { id: course.id }, query: {} }))).toEqual([
        404,
        'NOT_FOUND',
      ]);
    }
    expect(errorOf(await learner.api.courses.progress({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await learner.api.courses.certificate({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(expectStatus(await learner.api.courses.enrolled({ query: {} }), 200).body.data.courses).toEqual([]);
    const listed = expectStatus(await suite.api.courses.list({ query: { instructor_id: instructor.id } }), 200).body
      .data.courses;
    expect(listed).toEqual([]);
    const mine = expectStatus(await instructor.api.courses.get({ params: { id: course.id } }), 200).body.data.course;
    expect(mine).toMatchObject({ moderation_status: 'hidden', moderation_reason: 'spam' });
    expectStatus(await staff.api.courses.get({ params: { id: course.id } }), 200);

    const remove = await suite.http.post(`/moderation/content/course/${course.id}/remove`, {
      token: staff.token,
      body: { note: 'spam' },
    });
    expect(remove.status, remove.text).toBe(200);
    expect(
      errorOf(await instructor.api.courses.update({ params: { id: course.id }, body: { summary: 'back' } })),
    ).toEqual([403, 'FORBIDDEN']);
  });
});

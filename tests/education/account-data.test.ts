import { describe, expect, it } from 'vitest';
import { createCourse, createCreator } from '../support/course-factories.js';
import { createUser, type TestUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

async function exportOf(user: TestUser) {
  const reply = await suite.http.get('/users/me/export', { token: user.token });
  expect(reply.status).toBe(200);
  return reply.body as { courses_taught: { id: string; status: string }[]; course_enrollments: any[] };
}

async function erase(user: TestUser) {
  const reply = await suite.http.delete('/users/me', {
    token: user.token,
    body: { confirm_text: 'DELETE', password: user.password, reason: 'done', keep_public_tracks: false },
  });
  expect(reply.status).toBe(200);
}

describe('education in the account export and erasure', () => {
  it('exports what a user teaches and learns; erasing a learner removes enrollments, progress and reviews', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course, lessons } = await createCourse(suite.server, instructor, { lessons: 2, publish: true });
    const { course: draft } = await createCourse(suite.server, instructor);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    expectStatus(
      await learner.api.courses.completeLesson({ params: { id: course.id, lessonId: lessons[0]!.id } }),
      200,
    );
    expectStatus(
      await learner.api.courses.createReview({ params: { id: course.id }, body: { rating: 4, comment: 'Nice' } }),
      201,
    );
    const taught = (await exportOf(instructor)).courses_taught;
    expect(taught.map((entry) => [entry.id, entry.status])).toEqual([
      [course.id, 'published'],
      [draft.id, 'draft'],
    ]);
    expect((await exportOf(instructor)).course_enrollments).toEqual([]);
    const learned = await exportOf(learner);
    expect(learned.courses_taught).toEqual([]);
    expect(learned.course_enrollments).toEqual([
      expect.objectContaining({
        course_id: course.id,
        course_title: course.title,
        completed_lesson_ids: [lessons[0]!.id],
        completed_at: null,
        review: { rating: 4, comment: 'Nice' },
      }),
    ]);

    await erase(learner);
    const after = expectStatus(await instructor.api.courses.get({ params: { id: course.id } }), 200).body.data.course;
    expect([after.enrollment_count, after.review_count, after.avg_rating]).toEqual([0, 0, null]);
  });

  it('erasing an instructor archives courses with learners (still theirs to read) and deletes the others', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const { course: kept, lessons } = await createCourse(suite.server, instructor, { lessons: 1, publish: true });
    const { course: empty } = await createCourse(suite.server, instructor, { publish: true });
    const { course: draft } = await createCourse(suite.server, instructor);
    expectStatus(await learner.api.courses.enroll({ params: { id: kept.id } }), 201);
    await erase(instructor);
    const read = expectStatus(await learner.api.courses.get({ params: { id: kept.id } }), 200).body.data.course;
    expect(read.status).toBe('archived');
    expect(read.my_enrollment).not.toBeNull();
    expectStatus(await learner.api.courses.lesson({ params: { id: kept.id, lessonId: lessons[0]!.id } }), 200);
    expect((await stranger.api.courses.get({ params: { id: kept.id } })).status).toBe(404);
    for (const id of [empty.id, draft.id]) expect((await learner.api.courses.get({ params: { id } })).status).toBe(404);
    const listed = expectStatus(await suite.api.courses.list({ query: { instructor_id: instructor.id } }), 200).body
      .data;
    expect(listed.courses).toEqual([]);
  });
});

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

describe('course reviews', () => {
  it('need an enrollment and 20 % progress; one per learner; the course’s rating follows; author and staff delete', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const second = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const moderator = await createModerator(suite.server);
    const { course, lessons } = await createCourse(suite.server, instructor, { lessons: 5, publish: true });
    const review = (user: typeof learner, rating: number, comment?: string) =>
      user.api.courses.createReview({ params: { id: course.id }, body: { rating, ...(comment ? { comment } : {}) } });
    expect(errorOf(await review(stranger, 5))).toEqual([403, 'NOT_ENROLLED']);
    for (const user of [learner, second])
      expectStatus(await user.api.courses.enroll({ params: { id: course.id } }), 201);
    expect(errorOf(await review(learner, 5))).toEqual([403, 'NOT_ENOUGH_PROGRESS']);
    for (const user of [learner, second]) {
      expectStatus(await user.api.courses.completeLesson({ params: { id: course.id, lessonId: lessons[0]!.id } }), 200);
    }
    const first = expectStatus(await review(learner, 5, 'Great'), 201).body.data.review;
    expect(first).toMatchObject({ course_id: course.id, rating: 5, comment: 'Great' });
    expect(first.user?.id).toBe(learner.id);
    const replaced = expectStatus(await review(learner, 3, 'Good, on reflection'), 200).body.data.review;
    expect(replaced).toMatchObject({ id: first.id, rating: 3, comment: 'Good, on reflection' });
    const other = expectStatus(await review(second, 4), 201).body.data.review;
    const read = expectStatus(await suite.api.courses.get({ params: { id: course.id } }), 200).body.data.course;
    expect([read.avg_rating, read.review_count]).toEqual([3.5, 2]);
    const list = expectStatus(await suite.api.courses.listReviews({ params: { id: course.id }, query: {} }), 200).body
      .data;
    expect(list.reviews.map((entry) => entry.id)).toEqual([other.id, first.id]);
    expect(list.pagination.total).toBe(2);
    const bad = await suite.http.post(`/courses/${course.id}/reviews`, {
      token: learner.token,
      body: { rating: 6, comment: 'x'.repeat(2001) },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    // deletion: not by another learner or the instructor; by the author and by staff
    expect(errorOf(await second.api.courses.removeReview({ params: { id: course.id, reviewId: first.id } }))).toEqual([
      403,
      'FORBIDDEN',
    ]);
    expect(
      errorOf(await instructor.api.courses.removeReview({ params: { id: course.id, reviewId: first.id } })),
    ).toEqual([403, 'FORBIDDEN']);
    expectStatus(await learner.api.courses.removeReview({ params: { id: course.id, reviewId: first.id } }), 200);
    expectStatus(await moderator.api.courses.removeReview({ params: { id: course.id, reviewId: other.id } }), 200);
    expect(errorOf(await learner.api.courses.removeReview({ params: { id: course.id, reviewId: first.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const after = expectStatus(await suite.api.courses.get({ params: { id: course.id } }), 200).body.data.course;
    expect([after.avg_rating, after.review_count]).toEqual([null, 0]);
  });

  it('sort=rating puts the best rated first and the unrated last', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const topic = `r${Math.random().toString(36).slice(2, 8)}`;
    const made = [];
    for (const title of ['Unrated course', 'Low course', 'High course']) {
      made.push((await createCourse(suite.server, instructor, { title, topics: [topic], publish: true })).course);
    }
    const [unrated, low, high] = made as [(typeof made)[0], (typeof made)[0], (typeof made)[0]];
    for (const [course, rating] of [
      [low, 2],
      [high, 5],
    ] as const) {
      expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
      const lessons = expectStatus(await learner.api.courses.lessons({ params: { id: course.id } }), 200).body.data
        .lessons;
      expectStatus(
        await learner.api.courses.completeLesson({ params: { id: course.id, lessonId: lessons[0]!.id } }),
        200,
      );
      expectStatus(await learner.api.courses.createReview({ params: { id: course.id }, body: { rating } }), 201);
    }
    const ids = expectStatus(
      await suite.api.courses.list({ query: { topic, sort: 'rating' } }),
      200,
    ).body.data.courses.map((course) => course.id);
    expect(ids).toEqual([high.id, low.id, unrated.id]);
  });
});

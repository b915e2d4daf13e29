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

describe('lessons', () => {
  it('the outline is everyone’s who sees the course; content follows the read rule', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const moderator = await createModerator(suite.server);
    const { course, lessons } = await createCourse(suite.server, creator, { lessons: 2, publish: true });
    const [first, second] = lessons as [(typeof lessons)[0], (typeof lessons)[0]];
    const preview = expectStatus(
      await creator.api.courses.updateLesson({
        params: { id: course.id, lessonId: first.id },
        body: { is_preview: true },
      }),
      200,
    ).body.data.lesson;
    expect(preview).toMatchObject({ is_preview: true, body: 'The text of lesson 1', media: null, attachments: [] });
    const outline = expectStatus(await suite.api.courses.lessons({ params: { id: course.id } }), 200).body.data.lessons;
    expect(outline.map((lesson) => [lesson.title, lesson.position, lesson.is_preview])).toEqual([
      ['Lesson 1', 1, true],
      ['Lesson 2', 2, false],
    ]);
    expect(outline[0]).not.toHaveProperty('body');
    // a preview is anyone's; the rest needs an enrollment
    expectStatus(await suite.api.courses.lesson({ params: { id: course.id, lessonId: first.id } }), 200);
    expect(errorOf(await stranger.api.courses.lesson({ params: { id: course.id, lessonId: second.id } }))).toEqual([
      403,
      'NOT_ENROLLED',
    ]);
    expect(errorOf(await suite.api.courses.lesson({ params: { id: course.id, lessonId: second.id } }))).toEqual([
      403,
      'NOT_ENROLLED',
    ]);
    expectStatus(await moderator.api.courses.lesson({ params: { id: course.id, lessonId: second.id } }), 200);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    const read = expectStatus(await learner.api.courses.lesson({ params: { id: course.id, lessonId: second.id } }), 200)
      .body.data.lesson;
    expect(read.body).toBe('The text of lesson 2');
    // a lesson of another course, or none, is 404
    const { course: otherCourse } = await createCourse(suite.server, creator, { publish: true });
    expect(errorOf(await learner.api.courses.lesson({ params: { id: otherCourse.id, lessonId: second.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    // the lessons of a draft are as hidden as the draft
    const { course: draft, lessons: draftLessons } = await createCourse(suite.server, creator, { lessons: 1 });
    expect(errorOf(await stranger.api.courses.lessons({ params: { id: draft.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(
      errorOf(await stranger.api.courses.lesson({ params: { id: draft.id, lessonId: draftLessons[0]!.id } })),
    ).toEqual([404, 'NOT_FOUND']);
  });

  it('the instructor adds, edits, reorders and deletes; others may not', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course, lessons } = await createCourse(suite.server, creator, { lessons: 3, publish: true });
    const ids = lessons.map((lesson) => lesson.id);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    expect(
      errorOf(
        await learner.api.courses.createLesson({ params: { id: course.id }, body: { title: 'Mine', kind: 'text' } }),
      ),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await learner.api.courses.reorderLessons({ params: { id: course.id }, body: { lesson_ids: ids } })),
    ).toEqual([403, 'FORBIDDEN']);
    const reordered = expectStatus(
      await creator.api.courses.reorderLessons({
        params: { id: course.id },
        body: { lesson_ids: [ids[2]!, ids[0]!, ids[1]!] },
      }),
      200,
    ).body.data.lessons;
    expect(reordered.map((lesson) => [lesson.id, lesson.position])).toEqual([
      [ids[2], 1],
      [ids[0], 2],
      [ids[1], 3],
    ]);
    // every lesson exactly once
    for (const lesson_ids of [
      [ids[0]!, ids[1]!],
      [ids[0]!, ids[0]!, ids[1]!],
      [ids[0]!, ids[1]!, course.id],
    ]) {
      expect(
        errorOf(await creator.api.courses.reorderLessons({ params: { id: course.id }, body: { lesson_ids } })),
      ).toEqual([400, 'VALIDATION_FAILED']);
    }
    expectStatus(await creator.api.courses.removeLesson({ params: { id: course.id, lessonId: ids[2]! } }), 200);
    const after = expectStatus(await creator.api.courses.lessons({ params: { id: course.id } }), 200).body.data.lessons;
    expect(after.map((lesson) => [lesson.id, lesson.position])).toEqual([
      [ids[0], 1],
      [ids[1], 2],
    ]);
    expectStatus(await creator.api.courses.removeLesson({ params: { id: course.id, lessonId: ids[0]! } }), 200);
    // a published course keeps one lesson
    expect(errorOf(await creator.api.courses.removeLesson({ params: { id: course.id, lessonId: ids[1]! } }))).toEqual([
      400,
      'BAD_REQUEST',
    ]);
    const bad = await suite.http.post(`/courses/${course.id}/lessons`, {
      token: creator.token,
      body: { title: '', kind: 'podcast' },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('free enrollment', () => {
  it('enrolls once (201, then 200 with the same), a paid course needs a purchase, leaving ends it', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course } = await createCourse(suite.server, creator, { publish: true });
    const { course: paid } = await createCourse(suite.server, creator, { price: 12.5, publish: true });
    const { course: draft } = await createCourse(suite.server, creator, { lessons: 1 });
    const first = expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201).body.data
      .enrollment;
    expect(first).toMatchObject({ course_id: course.id, user_id: learner.id, progress_percent: 0, completed_at: null });
    const again = expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 200).body.data
      .enrollment;
    expect(again).toEqual(first);
    expect(
      expectStatus(await creator.api.courses.get({ params: { id: course.id } }), 200).body.data.course.enrollment_count,
    ).toBe(1);
    expect(errorOf(await learner.api.courses.enroll({ params: { id: paid.id } }))).toEqual([403, 'PURCHASE_REQUIRED']);
    expect(errorOf(await learner.api.courses.enroll({ params: { id: draft.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await learner.api.courses.leave({ params: { id: paid.id } }))).toEqual([403, 'NOT_ENROLLED']);
    expectStatus(await learner.api.courses.leave({ params: { id: course.id } }), 200);
    expect(
      expectStatus(await learner.api.courses.get({ params: { id: course.id } }), 200).body.data.course.my_enrollment,
    ).toBeNull();
    expect(errorOf(await learner.api.courses.leave({ params: { id: course.id } }))).toEqual([403, 'NOT_ENROLLED']);
  });
});

import { describe, expect, it } from 'vitest';
import { createCourse, createCreator } from '../support/course-factories.js';
import { createUser, type TestUser } from '../support/factories.js';
import { afterJobs } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

const errorOf = (reply: { status: number; body: unknown }): [number, string] => [
  reply.status,
  (reply.body as { error: { code: string } }).error.code,
];

/** The instructor's notification of this type about the course, once the notifier's job ran. */
async function noticeOf(user: TestUser, type: string, courseId: string) {
  return afterJobs(suite.server, async () => {
    const notes = expectStatus(await user.api.notifications.list({ query: {} }), 200).body.data.notifications;
    return notes.find((note) => note.type === type && note.subject?.id === courseId);
  });
}

describe('progress, completion and the certificate', () => {
  it('lessons completed move the percentage; all of them complete the enrollment, notify the instructor and make a certificate', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const { course, lessons } = await createCourse(suite.server, instructor, { lessons: 3, publish: true });
    const [a, b, c] = lessons.map((lesson) => lesson.id) as [string, string, string];
    const mark = (lessonId: string) => learner.api.courses.completeLesson({ params: { id: course.id, lessonId } });
    expect(errorOf(await mark(a))).toEqual([403, 'NOT_ENROLLED']);
    expect(errorOf(await learner.api.courses.progress({ params: { id: course.id } }))).toEqual([403, 'NOT_ENROLLED']);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    const enrolledNote = await noticeOf(instructor, 'course_enrolled', course.id);
    expect(enrolledNote?.actor?.id).toBe(learner.id);
    expect(enrolledNote?.subject).toEqual({ type: 'course', id: course.id, title: course.title });

    expect(expectStatus(await mark(b), 200).body.data.progress).toEqual({
      completed_lesson_ids: [b],
      progress_percent: 33,
      completed_at: null,
    });
    // idempotent
    expect(expectStatus(await mark(b), 200).body.data.progress.progress_percent).toBe(33);
    expect(expectStatus(await mark(a), 200).body.data.progress).toMatchObject({
      completed_lesson_ids: [a, b],
      progress_percent: 66,
    });
    expect(errorOf(await learner.api.courses.certificate({ params: { id: course.id } }))).toEqual([
      403,
      'NOT_COMPLETED',
    ]);
    const done = expectStatus(await mark(c), 200).body.data.progress;
    expect(done).toMatchObject({ completed_lesson_ids: [a, b, c], progress_percent: 100 });
    expect(done.completed_at).not.toBeNull();
    const completedNote = await noticeOf(instructor, 'course_completed', course.id);
    expect(completedNote?.actor?.id).toBe(learner.id);
    expect(completedNote?.message).toContain('completed your course');

    const mine = expectStatus(await learner.api.courses.get({ params: { id: course.id } }), 200).body.data.course
      .my_enrollment!;
    expect(mine).toMatchObject({ progress_percent: 100, completed_at: done.completed_at });
    const code = mine.certificate_code!;
    expect(code).toMatch(/^RIFF-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);

    // the PDF, and the public verification of its code
    const pdf = await fetch(`${suite.server.baseUrl}/api/v1/courses/${course.id}/certificate`, {
      headers: { authorization: `Bearer ${learner.token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const verified = expectStatus(await suite.api.courses.verifyCertificate({ params: { code } }), 200).body.data
      .certificate;
    expect(verified).toEqual({
      code,
      learner_name: learner.username,
      course_title: course.title,
      instructor_name: instructor.username,
      completed_at: done.completed_at,
    });
    expect(errorOf(await suite.api.courses.verifyCertificate({ params: { code: 'RIFF-NONE-NONE-NONE' } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await stranger.api.courses.certificate({ params: { id: course.id } }))).toEqual([
      403,
      'NOT_ENROLLED',
    ]);

    // an undo clears completed_at (the certificate is not verified meanwhile); completing again brings the same code back
    const undone = expectStatus(
      await learner.api.courses.uncompleteLesson({ params: { id: course.id, lessonId: a } }),
      200,
    ).body.data.progress;
    expect(undone).toEqual({ completed_lesson_ids: [b, c], progress_percent: 66, completed_at: null });
    expect((await suite.api.courses.verifyCertificate({ params: { code } })).status).toBe(404);
    expectStatus(await mark(a), 200);
    expect(
      expectStatus(await learner.api.courses.get({ params: { id: course.id } }), 200).body.data.course.my_enrollment
        ?.certificate_code,
    ).toBe(code);
    expectStatus(await suite.api.courses.verifyCertificate({ params: { code } }), 200);
  });

  it('a lesson of another course is 404; leaving takes the progress with it', async () => {
    const instructor = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course, lessons } = await createCourse(suite.server, instructor, { lessons: 2, publish: true });
    const { lessons: others } = await createCourse(suite.server, instructor, { lessons: 1, publish: true });
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    expect(
      errorOf(await learner.api.courses.completeLesson({ params: { id: course.id, lessonId: others[0]!.id } })),
    ).toEqual([404, 'NOT_FOUND']);
    expectStatus(
      await learner.api.courses.completeLesson({ params: { id: course.id, lessonId: lessons[0]!.id } }),
      200,
    );
    expectStatus(await learner.api.courses.leave({ params: { id: course.id } }), 200);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    expect(
      expectStatus(await learner.api.courses.progress({ params: { id: course.id } }), 200).body.data.progress,
    ).toEqual({ completed_lesson_ids: [], progress_percent: 0, completed_at: null });
  });
});

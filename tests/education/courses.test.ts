import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createAdmin } from '../support/admin-factory.js';
import { createCourse, createCreator } from '../support/course-factories.js';
import { createUser } from '../support/factories.js';
import { createModerator } from '../support/moderation.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

/** The status and error code of a refused call. */
const errorOf = (reply: { status: number; body: unknown }): [number, string] => [
  reply.status,
  (reply.body as { error: { code: string } }).error.code,
];

describe('creating and editing courses', () => {
  it('creators and admins create; a plain user is 403; fields have their defaults', async () => {
    const creator = await createCreator(suite.server);
    const admin = await createAdmin(suite.server);
    const user = await createUser(suite.server);
    // slugs are global: a title of this run's own (the PostgreSQL pass shares its database)
    const title = `Mixing ${Math.random().toString(36).slice(2, 8)}`;
    const slug = title.toLowerCase().replace(' ', '-');
    const reply = expectStatus(
      await creator.api.courses.create({ body: { title, topics: ['Mixing', 'mixing', 'EQ'] } }),
      201,
    );
    const course = reply.body.data.course;
    expect(course).toMatchObject({
      title,
      slug,
      level: 'all',
      language: 'en',
      price: 0,
      currency: 'USD',
      status: 'draft',
      topics: ['mixing', 'eq'],
      lesson_count: 0,
      enrollment_count: 0,
      product_id: null,
      my_enrollment: null,
      published_at: null,
      cover_url: null,
    });
    expect(course.instructor?.id).toBe(creator.id);
    // a second course of one title gets the next slug
    const again = expectStatus(await admin.api.courses.create({ body: { title, price: 19.99 } }), 201);
    expect(again.body.data.course).toMatchObject({ slug: `${slug}-2`, price: 19.99 });
    expect(errorOf(await user.api.courses.create({ body: { title: 'Nope' } }))).toEqual([403, 'FORBIDDEN']);
    const bad = await suite.http.post('/courses', {
      token: creator.token,
      body: { title: 'ab', level: 'expert', price: 1.234, currency: 'usd', topics: Array(11).fill('x') },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('a draft is 404 to everyone but its instructor and staff; edits are the instructor’s and admins’', async () => {
    const creator = await createCreator(suite.server);
    const other = await createCreator(suite.server);
    const moderator = await createModerator(suite.server);
    const admin = await createAdmin(suite.server);
    const { course } = await createCourse(suite.server, creator);
    expect(
      expectStatus(await creator.api.courses.get({ params: { id: course.id } }), 200).body.data.course.status,
    ).toBe('draft');
    expect(errorOf(await other.api.courses.get({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await suite.api.courses.get({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expectStatus(await moderator.api.courses.get({ params: { id: course.id } }), 200);
    expect(errorOf(await other.api.courses.update({ params: { id: course.id }, body: { title: 'Mine' } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    // staff see it but a moderator does not edit it
    expect(errorOf(await moderator.api.courses.update({ params: { id: course.id }, body: { title: 'Mine' } }))).toEqual(
      [403, 'FORBIDDEN'],
    );
    const title = `Ear training ${Math.random().toString(36).slice(2, 8)}`;
    const edited = expectStatus(
      await admin.api.courses.update({
        params: { id: course.id },
        body: { title, level: 'beginner', summary: 'Intervals', language: 'pt-BR' },
      }),
      200,
    ).body.data.course;
    expect(edited).toMatchObject({
      title,
      slug: title.toLowerCase().replaceAll(' ', '-'),
      level: 'beginner',
      language: 'pt-BR',
    });
  });

  it('status moves: draft → published (needs a lesson) → archived → published; others 400 INVALID_TRANSITION', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const stranger = await createUser(suite.server);
    const { course } = await createCourse(suite.server, creator);
    const move = (status: 'draft' | 'published' | 'archived') =>
      creator.api.courses.update({ params: { id: course.id }, body: { status } });
    expect(errorOf(await move('published'))).toEqual([400, 'INVALID_TRANSITION']);
    expect(errorOf(await move('archived'))).toEqual([400, 'INVALID_TRANSITION']);
    expectStatus(
      await creator.api.courses.createLesson({ params: { id: course.id }, body: { title: 'One', kind: 'text' } }),
      201,
    );
    const published = expectStatus(await move('published'), 200).body.data.course;
    expect(published.status).toBe('published');
    expect(published.published_at).not.toBeNull();
    expect(published.lesson_count).toBe(1);
    expect(errorOf(await move('draft'))).toEqual([400, 'INVALID_TRANSITION']);
    expectStatus(await suite.api.courses.get({ params: { id: course.id } }), 200);
    expectStatus(await learner.api.courses.enroll({ params: { id: course.id } }), 201);
    expect(expectStatus(await move('archived'), 200).body.data.course.status).toBe('archived');
    // archived: its learners, the instructor and staff read it; others 404; nobody new enrolls
    const mine = expectStatus(await learner.api.courses.get({ params: { id: course.id } }), 200).body.data.course;
    expect(mine.my_enrollment).not.toBeNull();
    expect(errorOf(await stranger.api.courses.get({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await stranger.api.courses.enroll({ params: { id: course.id } }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await move('draft'))).toEqual([400, 'INVALID_TRANSITION']);
    expect(expectStatus(await move('published'), 200).body.data.course.status).toBe('published');
  });

  it('deletion: a course with enrollments is archived, one without is gone', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course: kept } = await createCourse(suite.server, creator, { publish: true });
    const { course: gone } = await createCourse(suite.server, creator, { publish: true });
    expectStatus(await learner.api.courses.enroll({ params: { id: kept.id } }), 201);
    expect(errorOf(await learner.api.courses.remove({ params: { id: kept.id } }))).toEqual([403, 'FORBIDDEN']);
    expectStatus(await creator.api.courses.remove({ params: { id: kept.id } }), 200);
    expect(expectStatus(await learner.api.courses.get({ params: { id: kept.id } }), 200).body.data.course.status).toBe(
      'archived',
    );
    expectStatus(await creator.api.courses.remove({ params: { id: gone.id } }), 200);
    expect(errorOf(await creator.api.courses.get({ params: { id: gone.id } }))).toEqual([404, 'NOT_FOUND']);
  });

  it('a cover, stored as avatars are, served where the course is visible', async () => {
    const creator = await createCreator(suite.server);
    const other = await createUser(suite.server);
    const { course } = await createCourse(suite.server, creator);
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    const file = new File([new Uint8Array(png)], 'cover.png');
    expect(errorOf(await other.api.courses.setCover({ params: { id: course.id }, body: { file } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const set = expectStatus(await creator.api.courses.setCover({ params: { id: course.id }, body: { file } }), 200);
    expect(set.body.data.course.cover_url).toMatch(new RegExp(`/api/v1/courses/${course.id}/cover$`));
    for (const size of [512, 128] as const) {
      const reply = await fetch(`${suite.server.baseUrl}/api/v1/courses/${course.id}/cover?size=${size}`, {
        headers: { authorization: `Bearer ${creator.token}` },
      });
      expect(reply.status).toBe(200);
      const meta = await sharp(Buffer.from(await reply.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
    }
    // a draft's cover is the draft's: 404 to others
    expect((await fetch(`${suite.server.baseUrl}/api/v1/courses/${course.id}/cover`)).status).toBe(404);
    const notImage = await creator.api.courses.setCover({
      params: { id: course.id },
      body: { file: new File([new Uint8Array(Buffer.from('not an image'))], 'x.png') },
    });
    expect(errorOf(notImage)).toEqual([400, 'INVALID_IMAGE']);
  });
});

describe('the catalogue, and my courses', () => {
  it('lists published courses only, with filters and sorts', async () => {
    const creator = await createCreator(suite.server);
    const tag = `t${Math.random().toString(36).slice(2, 8)}`;
    const { course: free } = await createCourse(suite.server, creator, {
      title: 'Modular synthesis basics',
      topics: [tag, 'synthesis'],
      level: 'beginner',
      publish: true,
    });
    const { course: paid } = await createCourse(suite.server, creator, {
      title: 'Advanced drum programming',
      topics: [tag],
      level: 'advanced',
      language: 'de',
      price: 25,
      publish: true,
    });
    await createCourse(suite.server, creator, { title: 'Unpublished synthesis', topics: [tag], lessons: 1 });
    const learner = await createUser(suite.server);
    expectStatus(await learner.api.courses.enroll({ params: { id: free.id } }), 201);
    const ids = async (query: Record<string, unknown>) =>
      expectStatus(await suite.api.courses.list({ query: { topic: tag, ...query } }), 200).body.data.courses.map(
        (course) => course.id,
      );
    expect(await ids({})).toEqual([free.id, paid.id]); // popular: the one with a learner first
    expect(await ids({ sort: 'newest' })).toEqual([paid.id, free.id]);
    expect(await ids({ free: true })).toEqual([free.id]);
    expect(await ids({ free: false })).toEqual([paid.id]);
    expect(await ids({ level: 'advanced' })).toEqual([paid.id]);
    expect(await ids({ language: 'DE' })).toEqual([paid.id]);
    expect(await ids({ instructor_id: creator.id, q: 'modular synthesis' })).toEqual([free.id]);
    expect(await ids({ q: 'drum programing' })).toEqual([paid.id]);
    const page = expectStatus(await suite.api.courses.list({ query: { topic: tag, limit: 1 } }), 200).body.data;
    expect(page.pagination).toMatchObject({ total: 2, total_pages: 2 });
  });

  it('teaching lists mine in every status; enrolled lists where I learn; both empty otherwise', async () => {
    const creator = await createCreator(suite.server);
    const learner = await createUser(suite.server);
    const { course: draft } = await createCourse(suite.server, creator);
    const { course: live } = await createCourse(suite.server, creator, { publish: true });
    const teaching = expectStatus(await creator.api.courses.teaching({ query: {} }), 200).body.data;
    expect(teaching.courses.map((course) => course.id)).toEqual([live.id, draft.id]);
    expect(expectStatus(await learner.api.courses.teaching({ query: {} }), 200).body.data.courses).toEqual([]);
    expect(expectStatus(await learner.api.courses.enrolled({ query: {} }), 200).body.data.courses).toEqual([]);
    expectStatus(await learner.api.courses.enroll({ params: { id: live.id } }), 201);
    const enrolled = expectStatus(await learner.api.courses.enrolled({ query: {} }), 200).body.data.courses;
    expect(enrolled.map((course) => course.id)).toEqual([live.id]);
    expect(enrolled[0]!.my_enrollment).toMatchObject({ progress_percent: 0, completed_at: null });
    expect(enrolled[0]!.enrollment_count).toBe(1);
  });
});

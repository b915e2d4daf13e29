import { sql, type Kysely } from 'kysely';

// the contract's COURSE_LEVELS, COURSE_STATUSES and LESSON_KINDS as they are today (a migration is
// history; enum-constraints holds them together)
const LEVELS = `'beginner', 'intermediate', 'advanced', 'all'`;
const STATUSES = `'draft', 'published', 'archived'`;
const KINDS = `'text', 'audio', 'video'`;

/**
 * Education: courses by creators, their lessons, and who is enrolled.
 *
 * - courses: one row per course; the price in integer cents; the cover's two stored sizes; the
 *   moderation state as every moderated item carries it. Searchable through the engine's document
 *   riff_doc(title, summary, topics) with the indexes of migration 0015's kind (published courses).
 * - course_lessons: in course order by position (1, 2, …, kept dense by the service).
 * - course_enrollments: one current enrollment per learner and course, its completion and certificate code.
 * - course_lesson_progress: the lessons a learner completed; goes with the enrollment and with the lesson.
 * - course_reviews: one per learner and course (a second replaces the first).
 * The notifications' subject_type CHECK gains course (tests/contract/enum-constraints.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `create table courses (
        id uuid primary key default gen_random_uuid(),
        instructor_id uuid not null references users(id) on delete cascade,
        title text not null, slug text not null unique, summary text, description text,
        level text not null default 'all' check (level in (${LEVELS})),
        topics text[] not null default '{}',
        topics_text text not null default '',
        language text not null default 'en',
        price_cents integer not null default 0 check (price_cents >= 0),
        currency text not null default 'USD',
        status text not null default 'draft' check (status in (${STATUSES})),
        cover_large_key text, cover_small_key text, cover_content_type text,
        product_id uuid,
        moderation_status text not null default 'visible' check (moderation_status in ('visible', 'hidden', 'removed')),
        moderation_reason text, moderated_at timestamptz,
        published_at timestamptz,
        created_at timestamptz not null default now(), updated_at timestamptz not null default now()
      )`,
    )
    .execute(db);
  await sql`create index courses_instructor on courses (instructor_id, created_at desc, id)`.execute(db);
  await sql`create index courses_published on courses (published_at desc, id) where status = 'published'`.execute(db);
  await sql`create index courses_topics on courses using gin (topics)`.execute(db);
  const doc = 'riff_doc(title, summary, topics_text)';
  await sql
    .raw(
      `create index courses_search_tsv on courses using gin (to_tsvector('simple'::regconfig, ${doc})) where status = 'published'`,
    )
    .execute(db);
  await sql
    .raw(`create index courses_search_trgm on courses using gin ((${doc}) gin_trgm_ops) where status = 'published'`)
    .execute(db);
  await sql
    .raw(
      `create table course_lessons (
        id uuid primary key default gen_random_uuid(),
        course_id uuid not null references courses(id) on delete cascade,
        title text not null,
        kind text not null check (kind in (${KINDS})),
        position integer not null check (position >= 1),
        is_preview boolean not null default false,
        body text,
        duration_seconds integer check (duration_seconds >= 0),
        created_at timestamptz not null default now(), updated_at timestamptz not null default now()
      )`,
    )
    .execute(db);
  await sql`create index course_lessons_course on course_lessons (course_id, position)`.execute(db);
  await sql
    .raw(
      `create table course_enrollments (
        course_id uuid not null references courses(id) on delete cascade,
        user_id uuid not null references users(id) on delete cascade,
        enrolled_at timestamptz not null default now(),
        completed_at timestamptz,
        certificate_code text unique,
        primary key (course_id, user_id)
      )`,
    )
    .execute(db);
  await sql`create index course_enrollments_user on course_enrollments (user_id, enrolled_at desc)`.execute(db);
  await sql
    .raw(
      `create table course_lesson_progress (
        course_id uuid not null,
        user_id uuid not null,
        lesson_id uuid not null references course_lessons(id) on delete cascade,
        completed_at timestamptz not null default now(),
        primary key (user_id, lesson_id),
        foreign key (course_id, user_id) references course_enrollments(course_id, user_id) on delete cascade
      )`,
    )
    .execute(db);
  await sql`create index course_lesson_progress_enrollment on course_lesson_progress (course_id, user_id)`.execute(db);
  await sql
    .raw(
      `create table course_reviews (
        id uuid primary key default gen_random_uuid(),
        course_id uuid not null references courses(id) on delete cascade,
        user_id uuid not null references users(id) on delete cascade,
        rating integer not null check (rating between 1 and 5),
        comment text,
        created_at timestamptz not null default now(), updated_at timestamptz not null default now(),
        unique (course_id, user_id)
      )`,
    )
    .execute(db);
  await sql`create index course_reviews_course on course_reviews (course_id, updated_at desc, id)`.execute(db);
  await sql`create index course_reviews_user on course_reviews (user_id)`.execute(db);
  // a course is the subject of the notifications its learners' enrollments and completions make
  await sql`alter table notifications drop constraint if exists notifications_subject_type_check`.execute(db);
  await sql`alter table notifications add constraint notifications_subject_type_check
    check (subject_type in ('track', 'comment', 'user', 'playlist', 'product', 'order', 'group', 'course'))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from notifications where subject_type = 'course'`.execute(db);
  await sql`alter table notifications drop constraint if exists notifications_subject_type_check`.execute(db);
  await sql`alter table notifications add constraint notifications_subject_type_check
    check (subject_type in ('track', 'comment', 'user', 'playlist', 'product', 'order', 'group'))`.execute(db);
  for (const table of ['course_reviews', 'course_lesson_progress', 'course_enrollments', 'course_lessons', 'courses']) {
    await sql.raw(`drop table ${table}`).execute(db);
  }
}

import type { CourseLevel, CourseStatus, LessonKind } from '@riff/contract';
import type { Generated, Selectable } from 'kysely';
import type { ModerationColumns } from '../../platform/access/moderation.js';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface CoursesTable extends ModerationColumns {
  id: Generated<string>;
  instructor_id: string;
  title: string;
  slug: string;
  summary: string | null;
  description: string | null;
  level: Generated<CourseLevel>;
  topics: Generated<string[]>;
  /** The topics as one text, for the search document riff_doc(title, summary, topics_text). */
  topics_text: Generated<string>;
  language: Generated<string>;
  price_cents: Generated<number>;
  currency: Generated<string>;
  status: Generated<CourseStatus>;
  cover_large_key: string | null;
  cover_small_key: string | null;
  cover_content_type: string | null;
  /** The marketplace product of a paid course once published. */
  product_id: string | null;
  published_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CourseLessonsTable {
  id: Generated<string>;
  course_id: string;
  title: string;
  kind: LessonKind;
  /** From 1, dense within the course. */
  position: number;
  is_preview: Generated<boolean>;
  body: string | null;
  duration_seconds: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface CourseEnrollmentsTable {
  course_id: string;
  user_id: string;
  enrolled_at: CreatedAt;
  completed_at: Timestamp | null;
  /** Made at the first completion; stays valid after an undo. */
  certificate_code: string | null;
}

export interface CourseLessonProgressTable {
  course_id: string;
  user_id: string;
  lesson_id: string;
  completed_at: CreatedAt;
}

export interface CourseReviewsTable {
  id: Generated<string>;
  course_id: string;
  user_id: string;
  rating: number;
  comment: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type CourseRow = Selectable<CoursesTable>;
export type LessonRow = Selectable<CourseLessonsTable>;
export type EnrollmentRow = Selectable<CourseEnrollmentsTable>;
export type ReviewRow = Selectable<CourseReviewsTable>;

declare module '../../platform/db/database.schema.js' {
  interface Database {
    courses: CoursesTable;
    course_lessons: CourseLessonsTable;
    course_enrollments: CourseEnrollmentsTable;
    course_lesson_progress: CourseLessonProgressTable;
    course_reviews: CourseReviewsTable;
  }
}

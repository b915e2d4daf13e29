import type { Course, Enrollment, Lesson, LessonSummary, Profile } from '@riff/contract';
import { withModerationState } from '../../platform/access/moderation.js';
import type { CourseView } from './courses.repository.js';
import type { EnrollmentRow, LessonRow } from './courses.tables.js';
import { percentOf } from './enrollments.repository.js';

/** The URL path of a course's cover, as the API serves it. */
export const courseCoverPath = (courseId: string) => `/api/v1/courses/${courseId}/cover`;

/** Integer cents to major units (1999 → 19.99). */
export const majorUnits = (cents: number) => cents / 100;
/** Major units with at most two decimals to integer cents. */
export const toCents = (price: number) => Math.round(price * 100);

/** A course as the caller whose view it is reads it (moderation state to instructor and staff: the policy let them read it). */
export function toCourseDto(view: CourseView, instructor: Profile | null, publicBaseUrl: string): Course {
  const dto: Course = {
    id: view.id,
    instructor,
    title: view.title,
    slug: view.slug,
    summary: view.summary,
    description: view.description,
    level: view.level,
    topics: view.topics,
    language: view.language,
    price: majorUnits(view.price_cents),
    currency: view.currency,
    status: view.status,
    cover_url: view.cover_large_key ? `${publicBaseUrl}${courseCoverPath(view.id)}` : null,
    lesson_count: view.lesson_count,
    total_duration_seconds: view.total_duration_seconds,
    enrollment_count: view.enrollment_count,
    avg_rating: view.avg_rating === null ? null : Number(view.avg_rating),
    review_count: view.review_count,
    product_id: view.product_id,
    my_enrollment: view.my_enrolled_at
      ? {
          enrolled_at: view.my_enrolled_at.toISOString(),
          progress_percent: percentOf(view.my_done_count, view.lesson_count),
          completed_at: view.my_completed_at?.toISOString() ?? null,
          certificate_code: view.my_certificate_code,
        }
      : null,
    created_at: view.created_at.toISOString(),
    updated_at: view.updated_at.toISOString(),
    published_at: view.published_at?.toISOString() ?? null,
  };
  return withModerationState(dto, view);
}

export function toLessonSummary(row: LessonRow): LessonSummary {
  return {
    id: row.id,
    course_id: row.course_id,
    title: row.title,
    kind: row.kind,
    position: row.position,
    is_preview: row.is_preview,
    duration_seconds: row.duration_seconds,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toLessonDto(row: LessonRow): Lesson {
  return { ...toLessonSummary(row), body: row.body, media: null, attachments: [] };
}

export function toEnrollmentDto(row: EnrollmentRow, progressPercent: number): Enrollment {
  return {
    course_id: row.course_id,
    user_id: row.user_id,
    enrolled_at: row.enrolled_at.toISOString(),
    progress_percent: progressPercent,
    completed_at: row.completed_at?.toISOString() ?? null,
  };
}

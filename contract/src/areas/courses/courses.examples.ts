import { CREATED, onePage, OTHER_USER_ID, UPDATED } from '../../common/common.examples.js';
import { profile } from '../users/profile.examples.js';
import type { Course, Enrollment, Lesson, LessonSummary } from './courses.schemas.js';

export const COURSE_ID = '5c1d7e9a-3b2f-4c6d-8e0a-9f1b2c3d4e5f';
const LESSON_ID = '7e2a4c6b-1d3f-4a5b-9c8d-0e1f2a3b4c5d';

export const course: Course = {
  id: COURSE_ID,
  instructor: profile,
  title: 'Mixing synthwave from scratch',
  slug: 'mixing-synthwave-from-scratch',
  summary: 'Gain staging, bus compression and the wide pads of the genre',
  description: '## What you will learn\n\n- Gain staging\n- Bus compression',
  level: 'intermediate',
  topics: ['mixing', 'synthwave'],
  language: 'en',
  price: 0,
  currency: 'USD',
  status: 'published',
  cover_url: `https://riff.example.org/api/v1/courses/${COURSE_ID}/cover`,
  lesson_count: 12,
  total_duration_seconds: 5400,
  enrollment_count: 38,
  avg_rating: 4.6,
  review_count: 9,
  product_id: null,
  my_enrollment: { enrolled_at: UPDATED, progress_percent: 25, completed_at: null, certificate_code: null },
  created_at: CREATED,
  updated_at: UPDATED,
  published_at: UPDATED,
};

const summary: LessonSummary = {
  id: LESSON_ID,
  course_id: COURSE_ID,
  title: 'Gain staging',
  kind: 'text',
  position: 1,
  is_preview: true,
  duration_seconds: null,
  created_at: CREATED,
  updated_at: UPDATED,
};
const media = {
  status: 'ready' as const,
  hls_url: `https://riff.example.org/api/v1/courses/${COURSE_ID}/lessons/${LESSON_ID}/hls/master.m3u8`,
  waveform_url: `https://riff.example.org/api/v1/courses/${COURSE_ID}/lessons/${LESSON_ID}/waveform`,
  url: `https://riff.example.org/api/v1/courses/${COURSE_ID}/lessons/${LESSON_ID}/media`,
};
const lesson: Lesson = {
  ...summary,
  kind: 'audio',
  duration_seconds: 312,
  body: 'Keep every track peaking around -12 dBFS before the bus.',
  media,
  attachments: [],
};
const enrollment: Enrollment = {
  course_id: COURSE_ID,
  user_id: OTHER_USER_ID,
  enrolled_at: UPDATED,
  progress_percent: 0,
  completed_at: null,
};

const progress = { completed_lesson_ids: [LESSON_ID], progress_percent: 8, completed_at: null };
const certificate = {
  code: 'RIFF-7K2M-9QXD-4HPT',
  learner_name: 'ines.alvarez',
  course_title: course.title,
  instructor_name: 'theo.marsh',
  completed_at: UPDATED,
};

const review = {
  id: '2b4d6f8a-1c3e-4a5b-8d7f-9e0a1b2c3d4e',
  course_id: COURSE_ID,
  user: profile,
  rating: 5,
  comment: 'Clear and practical: my mixes breathe now.',
  created_at: CREATED,
  updated_at: UPDATED,
};

export const COURSES_EXAMPLES: Record<string, unknown> = {
  Course: course,
  MyEnrollment: course.my_enrollment,
  CreateCourseRequest: { title: course.title, summary: course.summary, level: 'intermediate', topics: course.topics },
  UpdateCourseRequest: { status: 'published' },
  CourseReply: { course },
  CoursePage: { courses: [course], pagination: onePage(1) },
  SetCourseCoverRequest: { file: 'cover.png' },
  LessonAttachment: {
    id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
    name: 'session.als',
    size: 48213,
    content_type: 'application/octet-stream',
  },
  LessonSummary: summary,
  Lesson: lesson,
  LessonMedia: media,
  CreateLessonRequest: { title: lesson.title, kind: 'audio', body: lesson.body, is_preview: true },
  UpdateLessonRequest: { title: 'Gain staging, revisited' },
  ReorderLessonsRequest: { lesson_ids: [LESSON_ID] },
  LessonReply: { lesson },
  LessonList: { lessons: [summary] },
  Enrollment: enrollment,
  EnrollmentReply: { enrollment },
  CourseProgress: progress,
  CourseProgressReply: { progress },
  Certificate: certificate,
  CertificateReply: { certificate },
  CourseReview: review,
  CreateCourseReviewRequest: { rating: 5, comment: review.comment },
  CourseReviewReply: { review },
  ExportedCourseTaught: {
    id: COURSE_ID,
    title: course.title,
    slug: course.slug,
    summary: course.summary,
    description: course.description,
    status: 'published',
    price_cents: 0,
    currency: 'USD',
    lessons: [{ id: LESSON_ID, title: lesson.title, kind: 'audio', position: 1, body: lesson.body }],
    enrollment_count: 38,
    created_at: CREATED,
    published_at: UPDATED,
  },
  ExportedCourseEnrollment: {
    course_id: COURSE_ID,
    course_title: course.title,
    enrolled_at: UPDATED,
    completed_at: null,
    certificate_code: null,
    completed_lesson_ids: [LESSON_ID],
    review: { rating: 5, comment: 'Clear and practical' },
  },
  CourseReviewPage: { reviews: [review], pagination: onePage(1) },
};

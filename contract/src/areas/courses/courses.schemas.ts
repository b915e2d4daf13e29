import { z } from 'zod';
import {
  PaginationQuerySchema,
  TimestampSchema,
  UuidSchema,
  pageOf,
  queryBoolean,
} from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { CurrencySchema, PRODUCT_PRICE_MAX } from '../marketplace/products.schemas.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';
import { ProfileSchema } from '../users/users.schemas.js';

/** How hard a course is: declared once (the migration's CHECK and the services derive from it). */
export const COURSE_LEVELS = ['beginner', 'intermediate', 'advanced', 'all'] as const;
export type CourseLevel = (typeof COURSE_LEVELS)[number];
/** Where a course stands: a draft is its instructor's; only published courses are listed and enrolled in. */
export const COURSE_STATUSES = ['draft', 'published', 'archived'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];
/** What a lesson holds besides its text. */
export const LESSON_KINDS = ['text', 'audio', 'video'] as const;
export type LessonKind = (typeof LESSON_KINDS)[number];
/** The orders of GET /courses. */
export const COURSE_SORTS = ['popular', 'newest', 'rating'] as const;

/** At most this many lessons per course (the next is 400 LIMIT_REACHED). */
export const COURSE_LESSONS_MAX = 500;
/** At most this many topics per course, each at most 30 characters. */
export const COURSE_TOPICS_MAX = 10;
/** A cover upload is at most 10 MiB, as an avatar. */
export const COURSE_COVER_MAX_BYTES = 10 * 1024 * 1024;

/** Major units with at most two decimals (19.99), so that cents are exact; 0 is free. */
const price = z
  .number()
  .min(0)
  .max(PRODUCT_PRICE_MAX)
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'must have at most 2 decimals')
  .describe('In major units (19.99), at most 2 decimals; 0 is free');
const topics = z
  .array(z.string().trim().min(1).max(30))
  .max(COURSE_TOPICS_MAX)
  .describe(`At most ${COURSE_TOPICS_MAX} topics of 1 to 30 characters (kept in lower case, without repeats)`);
/** A BCP 47 language tag (en, pt-BR, zh-Hant-TW). */
const language = z
  .string()
  .trim()
  .min(2)
  .max(35)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a BCP 47 language tag, e.g. en or pt-BR')
  .describe('BCP 47 language tag, e.g. en or pt-BR');

export const MyEnrollmentSchema = named(
  'MyEnrollment',
  z
    .object({
      enrolled_at: TimestampSchema,
      progress_percent: z.number().int().min(0).max(100),
      completed_at: TimestampSchema.nullable(),
      certificate_code: z.string().nullable().describe('The verification code of the certificate, once completed'),
    })
    .describe('The caller’s enrollment (null when not enrolled)'),
);

export const CourseSchema = named(
  'Course',
  z.object({
    id: UuidSchema,
    instructor: ProfileSchema.nullable(),
    title: z.string(),
    slug: z.string(),
    summary: z.string().nullable(),
    description: z.string().nullable().describe('Markdown'),
    level: z.enum(COURSE_LEVELS),
    topics: z.array(z.string()),
    language: z.string(),
    price: z.number().min(0).describe('In major units; 0 is free'),
    currency: CurrencySchema,
    status: z.enum(COURSE_STATUSES),
    cover_url: z.string().nullable().describe('Absolute URL of GET /courses/{id}/cover, or null'),
    lesson_count: z.number().int().min(0),
    total_duration_seconds: z.number().int().min(0),
    enrollment_count: z.number().int().min(0).describe('Current enrollments'),
    avg_rating: z.number().nullable(),
    review_count: z.number().int().min(0),
    product_id: UuidSchema.nullable().describe('The marketplace product of a paid course once published, else null'),
    my_enrollment: MyEnrollmentSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    published_at: TimestampSchema.nullable(),
    ...ModerationStateFields,
  }),
);
export type Course = z.infer<typeof CourseSchema>;

export const CreateCourseRequestSchema = named(
  'CreateCourseRequest',
  z.object({
    title: z.string().trim().min(3).max(200),
    summary: z.string().max(500).nullable().optional(),
    description: z.string().max(10_000).nullable().optional().describe('Markdown'),
    level: z.enum(COURSE_LEVELS).optional().describe('Default all'),
    topics: topics.optional(),
    language: language.optional().describe('BCP 47, default en'),
    price: price.optional().describe('Major units, default 0 (free)'),
    currency: CurrencySchema.optional().describe('ISO 4217, default USD'),
  }),
);
export type CreateCourseRequest = z.infer<typeof CreateCourseRequestSchema>;

export const UpdateCourseRequestSchema = named(
  'UpdateCourseRequest',
  z.object({
    title: z.string().trim().min(3).max(200).optional(),
    summary: z.string().max(500).nullable().optional(),
    description: z.string().max(10_000).nullable().optional(),
    level: z.enum(COURSE_LEVELS).optional(),
    topics: topics.optional(),
    language: language.optional(),
    price: price.optional(),
    currency: CurrencySchema.optional(),
    status: z
      .enum(COURSE_STATUSES)
      .optional()
      .describe('draft → published (needs a lesson) → archived → published; anything else 400 INVALID_TRANSITION'),
  }),
);
export type UpdateCourseRequest = z.infer<typeof UpdateCourseRequestSchema>;

export const CourseListQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1).max(200).optional().describe('Words of the title, summary or topics'),
  topic: z.string().trim().min(1).max(30).optional(),
  level: z.enum(COURSE_LEVELS).optional(),
  language: z.string().trim().min(2).max(35).optional(),
  instructor_id: UuidSchema.optional(),
  free: queryBoolean().optional().describe('true: free courses only; false: paid ones only'),
  sort: z.enum(COURSE_SORTS).optional().describe('popular (default): most enrolled; newest: last published; rating'),
});
export type CourseListQuery = z.infer<typeof CourseListQuerySchema>;

export const LessonAttachmentSchema = named(
  'LessonAttachment',
  z.object({ id: UuidSchema, name: z.string(), size: z.number().int().min(0), content_type: z.string() }),
);

/** Where a lesson's uploaded media stands (audio goes through the media pipeline; video is stored as is). */
export const LESSON_MEDIA_STATUSES = ['pending', 'processing', 'ready', 'error'] as const;

export const LessonMediaSchema = named(
  'LessonMedia',
  z
    .object({
      status: z.enum(LESSON_MEDIA_STATUSES),
      hls_url: z.string().optional().describe('Audio: the HLS master playlist, once ready'),
      waveform_url: z.string().optional().describe('Audio: the waveform, once ready'),
      url: z.string().describe('The original file (Range requests)'),
    })
    .describe('Null until media is uploaded'),
);

const lessonSummaryShape = {
  id: UuidSchema,
  course_id: UuidSchema,
  title: z.string(),
  kind: z.enum(LESSON_KINDS),
  position: z.number().int().min(1).describe('From 1'),
  is_preview: z.boolean(),
  duration_seconds: z.number().int().min(0).nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

export const LessonSummarySchema = named('LessonSummary', z.object(lessonSummaryShape));

export const LessonSchema = named(
  'Lesson',
  z.object({
    ...lessonSummaryShape,
    body: z.string().nullable().describe('Markdown'),
    media: LessonMediaSchema.nullable(),
    attachments: z.array(LessonAttachmentSchema),
  }),
);
export type Lesson = z.infer<typeof LessonSchema>;
export type LessonSummary = z.infer<typeof LessonSummarySchema>;

export const CreateLessonRequestSchema = named(
  'CreateLessonRequest',
  z.object({
    title: z.string().trim().min(1).max(200),
    kind: z.enum(LESSON_KINDS),
    body: z.string().max(50_000).nullable().optional().describe('Markdown'),
    is_preview: z.boolean().optional().describe('Default false: anyone may read a preview lesson'),
  }),
);
export type CreateLessonRequest = z.infer<typeof CreateLessonRequestSchema>;

export const UpdateLessonRequestSchema = named(
  'UpdateLessonRequest',
  z.object({
    title: z.string().trim().min(1).max(200).optional(),
    body: z.string().max(50_000).nullable().optional(),
    is_preview: z.boolean().optional(),
  }),
);
export type UpdateLessonRequest = z.infer<typeof UpdateLessonRequestSchema>;

export const ReorderLessonsRequestSchema = named(
  'ReorderLessonsRequest',
  z.object({
    lesson_ids: z
      .array(UuidSchema)
      .min(1)
      .max(COURSE_LESSONS_MAX)
      .describe('Every lesson of the course once, in the new order'),
  }),
);

export const EnrollmentSchema = named(
  'Enrollment',
  z.object({
    course_id: UuidSchema,
    user_id: UuidSchema,
    enrolled_at: TimestampSchema,
    progress_percent: z.number().int().min(0).max(100),
    completed_at: TimestampSchema.nullable(),
  }),
);
export type Enrollment = z.infer<typeof EnrollmentSchema>;

export const LessonParamsSchema = z.object({ id: UuidSchema, lessonId: UuidSchema });

export const CourseEnvelope = envelope(named('CourseReply', z.object({ course: CourseSchema })));
export const CoursePageEnvelope = envelope(named('CoursePage', pageOf('courses', CourseSchema)));
export const LessonEnvelope = envelope(named('LessonReply', z.object({ lesson: LessonSchema })));
export const LessonListEnvelope = envelope(
  named('LessonList', z.object({ lessons: z.array(LessonSummarySchema).describe('In course order') })),
);
export const EnrollmentEnvelope = envelope(named('EnrollmentReply', z.object({ enrollment: EnrollmentSchema })));

export const CourseProgressSchema = named(
  'CourseProgress',
  z.object({
    completed_lesson_ids: z.array(UuidSchema).describe('In course order'),
    progress_percent: z.number().int().min(0).max(100).describe('Completed lessons over all lessons, rounded down'),
    completed_at: TimestampSchema.nullable().describe('When every lesson was complete; cleared by an undo'),
  }),
);
export type CourseProgress = z.infer<typeof CourseProgressSchema>;

export const CertificateSchema = named(
  'Certificate',
  z.object({
    code: z.string().describe('The verification code printed on the certificate'),
    learner_name: z.string(),
    course_title: z.string(),
    instructor_name: z.string(),
    completed_at: TimestampSchema,
  }),
);
export type Certificate = z.infer<typeof CertificateSchema>;

export const CertificateParamsSchema = z.object({ code: z.string().min(1).max(64) });

export const CourseProgressEnvelope = envelope(
  named('CourseProgressReply', z.object({ progress: CourseProgressSchema })),
);
export const CertificateEnvelope = envelope(named('CertificateReply', z.object({ certificate: CertificateSchema })));

/** A review needs this much of the course completed (percent). */
export const COURSE_REVIEW_MIN_PROGRESS = 20;

export const CourseReviewSchema = named(
  'CourseReview',
  z.object({
    id: UuidSchema,
    course_id: UuidSchema,
    user: ProfileSchema.nullable(),
    rating: z.number().int().min(1).max(5),
    comment: z.string().nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type CourseReview = z.infer<typeof CourseReviewSchema>;

export const CreateCourseReviewRequestSchema = named(
  'CreateCourseReviewRequest',
  z.object({
    rating: z.number().int().min(1).max(5),
    comment: z.string().max(2000).nullable().optional(),
  }),
);
export type CreateCourseReviewRequest = z.infer<typeof CreateCourseReviewRequestSchema>;

export const CourseReviewParamsSchema = z.object({ id: UuidSchema, reviewId: UuidSchema });

export const CourseReviewEnvelope = envelope(named('CourseReviewReply', z.object({ review: CourseReviewSchema })));
export const CourseReviewPageEnvelope = envelope(named('CourseReviewPage', pageOf('reviews', CourseReviewSchema)));

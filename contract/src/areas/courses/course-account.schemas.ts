import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

// Apart from courses.schemas.ts, which reads the users area's ProfileSchema: the users area's export
// document reads these, and a cycle of schema modules would leave one of them undefined.

/** Your part of the data export as an instructor: a course you teach. */
export const ExportedCourseTaughtSchema = named(
  'ExportedCourseTaught',
  z.object({
    id: UuidSchema,
    title: z.string(),
    slug: z.string(),
    summary: z.string().nullable(),
    description: z.string().nullable(),
    status: z.string().describe('draft, published or archived'),
    price_cents: z.number().int().min(0),
    currency: z.string(),
    lessons: z.array(
      z.object({
        id: UuidSchema,
        title: z.string(),
        kind: z.string(),
        position: z.number().int(),
        body: z.string().nullable(),
      }),
    ),
    enrollment_count: z.number().int().min(0),
    created_at: TimestampSchema,
    published_at: TimestampSchema.nullable(),
  }),
);
export type ExportedCourseTaught = z.infer<typeof ExportedCourseTaughtSchema>;

/** Your part of the data export as a learner: an enrollment, its progress and your review. */
export const ExportedCourseEnrollmentSchema = named(
  'ExportedCourseEnrollment',
  z.object({
    course_id: UuidSchema,
    course_title: z.string(),
    enrolled_at: TimestampSchema,
    completed_at: TimestampSchema.nullable(),
    certificate_code: z.string().nullable(),
    completed_lesson_ids: z.array(UuidSchema),
    review: z.object({ rating: z.number().int(), comment: z.string().nullable() }).nullable(),
  }),
);
export type ExportedCourseEnrollment = z.infer<typeof ExportedCourseEnrollmentSchema>;

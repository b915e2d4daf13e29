import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { REPORT_REASONS, REPORT_TARGET_TYPES } from './moderation-states.js';

/** A user's report as they (and the account export) see it. Apart from the queue's schemas, which name profiles. */
export const REPORT_STATUSES = ['open', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];
export const REPORT_OUTCOMES = ['action_taken', 'no_violation'] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];
/** Named, so that its nullable use is a reference (a nullable inline enum lists null among its values). */
export const ReportOutcomeSchema = named('ReportOutcome', z.enum(REPORT_OUTCOMES));

export const ReportSchema = named(
  'Report',
  z.object({
    id: UuidSchema,
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: UuidSchema,
    reason: z.enum(REPORT_REASONS),
    details: z.string().nullable(),
    status: z.enum(REPORT_STATUSES),
    created_at: TimestampSchema,
    resolved_at: TimestampSchema.nullable(),
    // null while open; a dismissal, or a resolution that took no action, is no_violation
    outcome: ReportOutcomeSchema.nullable(),
  }),
);
export type Report = z.infer<typeof ReportSchema>;

import { z } from 'zod';
import { PaginationQuerySchema, pageOf, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ProfileSchema } from '../users/users.schemas.js';
import {
  MODERATED_CONTENT_TYPES,
  MODERATION_STATUSES,
  REPORT_REASONS,
  REPORT_TARGET_TYPES,
  SUSPENSION_MAX_DAYS,
} from './moderation-states.js';

export * from './moderation-states.js';
export * from './report.schemas.js';
import { REPORT_STATUSES, ReportSchema } from './report.schemas.js';

/** A reporter may file this many reports in 24 hours; the next is 429. */
export const REPORTS_PER_DAY = 20;

/** What resolving a case does: nothing, the target's state, or a sanction of its owner. */
export const CASE_ACTIONS = ['none', 'hide', 'remove', 'warn', 'suspend', 'ban'] as const;
export type CaseAction = (typeof CASE_ACTIONS)[number];
/** What staff may do to content without a report. */
export const CONTENT_ACTIONS = ['hide', 'restore', 'remove'] as const;
export type ContentAction = (typeof CONTENT_ACTIONS)[number];

const NoteSchema = z.string().trim().min(1).max(2000);

export const CreateReportRequestSchema = named(
  'CreateReportRequest',
  z.object({
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: UuidSchema,
    reason: z.enum(REPORT_REASONS),
    details: z.string().trim().max(2000).optional(),
  }),
);
export type CreateReportRequest = z.infer<typeof CreateReportRequestSchema>;

export const ReportReplySchema = named('ReportReply', z.object({ report: ReportSchema }));
export const ReportPageSchema = named('ReportPage', pageOf('reports', ReportSchema));

export const CaseParamsSchema = z.object({ target_type: z.enum(REPORT_TARGET_TYPES), target_id: UuidSchema });
export const ContentParamsSchema = z.object({ target_type: z.enum(MODERATED_CONTENT_TYPES), id: UuidSchema });

export const ModerationQueueQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(REPORT_STATUSES).default('open'),
  target_type: z.enum(REPORT_TARGET_TYPES).optional(),
  reason: z.enum(REPORT_REASONS).optional().describe('Cases with at least one report for this reason'),
  assigned: z.enum(['me', 'none', 'any']).default('any'),
});
export type ModerationQueueQuery = z.infer<typeof ModerationQueueQuerySchema>;

export const ModerationCaseSchema = named(
  'ModerationCase',
  z.object({
    target_type: z.enum(REPORT_TARGET_TYPES),
    target_id: UuidSchema,
    target_snapshot: z
      .record(z.unknown())
      .describe('The target as it was at the first report (title, text, file paths), kept whatever happens to it'),
    // whose content (or who) it is; null once their account is gone
    owner: ProfileSchema.nullable(),
    report_count: z.number().int().min(1),
    reasons: z.record(z.enum(REPORT_REASONS), z.number().int().min(1)).describe('Reports per reason'),
    first_reported_at: TimestampSchema,
    last_reported_at: TimestampSchema,
    assigned_to: UuidSchema.nullable(),
    status: z.enum(REPORT_STATUSES),
  }),
);
export type ModerationCase = z.infer<typeof ModerationCaseSchema>;

export const ModerationQueueSchema = named('ModerationQueue', pageOf('cases', ModerationCaseSchema));

export const CaseReportSchema = named(
  'CaseReport',
  ReportSchema.extend({ reporter_id: UuidSchema.nullable().describe('null once the reporter’s account is gone') }),
);

export const CaseEventSchema = named(
  'CaseEvent',
  z.object({
    action: z.string().describe('opened, assigned, resolved:<action>, dismissed'),
    actor_id: UuidSchema.nullable(),
    note: z.string().nullable(),
    created_at: TimestampSchema,
  }),
);

export const ModerationCaseDetailSchema = named(
  'ModerationCaseDetail',
  ModerationCaseSchema.extend({
    reports: z.array(CaseReportSchema).describe('Every report of this case, oldest first'),
    history: z.array(CaseEventSchema).describe('What staff did, oldest first'),
    current: z
      .object({ moderation_status: z.enum(MODERATION_STATUSES), moderation_reason: z.string().nullable() })
      .nullable()
      .describe('The target’s state now (content only); null once it is gone or for a user'),
  }),
);
export type ModerationCaseDetail = z.infer<typeof ModerationCaseDetailSchema>;
export const ModerationCaseReplySchema = named('ModerationCaseReply', z.object({ case: ModerationCaseDetailSchema }));

export const ResolveCaseRequestSchema = named(
  'ResolveCaseRequest',
  z.object({
    action: z.enum(CASE_ACTIONS),
    note: NoteSchema,
    duration_days: z
      .number()
      .int()
      .min(1)
      .max(SUSPENSION_MAX_DAYS)
      .optional()
      .describe('suspend only: the suspension’s length'),
  }),
);
export type ResolveCaseRequest = z.infer<typeof ResolveCaseRequestSchema>;

export const StaffNoteRequestSchema = named('StaffNoteRequest', z.object({ note: NoteSchema }));

export const ContentStateSchema = named(
  'ContentState',
  z.object({
    target_type: z.enum(MODERATED_CONTENT_TYPES),
    target_id: UuidSchema,
    moderation_status: z.enum(MODERATION_STATUSES),
    moderation_reason: z.string().nullable(),
  }),
);
export type ContentState = z.infer<typeof ContentStateSchema>;
export const ContentStateReplySchema = named('ContentStateReply', z.object({ content: ContentStateSchema }));

import { z } from 'zod';
import { PaginationQuerySchema, TimestampSchema, UuidSchema, pageOf } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import {
  COPYRIGHT_CLAIM_STATUSES,
  CopyrightClaimSchema,
  CopyrightClaimStatusSchema,
  COUNTER_NOTICE_DAYS,
} from './copyright-records.schemas.js';

export * from './copyright-records.schemas.js';

/** Claims one user may file in 24 hours; the next is 429. */
export const COPYRIGHT_CLAIMS_PER_DAY = 5;
export const WORK_DESCRIPTION_MAX = 2000;
export const COUNTER_STATEMENT_MAX = 5000;
export const CLAIM_NOTE_MAX = 2000;
/** Claims of each side GET /copyright/claims/mine lists, newest first. */
export const MY_CLAIMS_LISTED = 100;

export const COPYRIGHT_OUTCOMES = ['upheld', 'rejected'] as const;
export type CopyrightOutcome = (typeof COPYRIGHT_OUTCOMES)[number];

const NameSchema = z.string().trim().min(1).max(200);
const SignatureSchema = z.string().trim().min(1).max(200).describe('The full name of who signs, as a signature');

export const CreateCopyrightClaimRequestSchema = named(
  'CreateCopyrightClaimRequest',
  z.object({
    track_id: UuidSchema,
    claimant_name: NameSchema.describe('Who holds the rights, or acts for them'),
    claimant_email: z.string().trim().email().max(254).describe('Never shown to the track’s owner'),
    work_description: z
      .string()
      .trim()
      .min(1)
      .max(WORK_DESCRIPTION_MAX)
      .describe('The work whose rights are infringed'),
    original_url: z
      .string()
      .trim()
      .url()
      .max(2048)
      .refine((url) => /^https?:\/\//i.test(url), 'must be an http or https URL')
      .optional()
      .describe('Where the original work is'),
    statement_good_faith: z
      .literal(true)
      .describe('I believe in good faith that the use is not authorised by the rights holder or the law'),
    statement_accuracy: z
      .literal(true)
      .describe('The claim is accurate, and I am the rights holder or authorised to act for them'),
    signature: SignatureSchema,
  }),
);
export type CreateCopyrightClaimRequest = z.infer<typeof CreateCopyrightClaimRequestSchema>;

export const CounterNoticeRequestSchema = named(
  'CounterNoticeRequest',
  z.object({
    statement: z
      .string()
      .trim()
      .min(1)
      .max(COUNTER_STATEMENT_MAX)
      .describe('Why the track does not infringe (a licence, your own work, fair use…)'),
    signature: SignatureSchema,
  }),
);
export type CounterNoticeRequest = z.infer<typeof CounterNoticeRequestSchema>;

export const DecideClaimRequestSchema = named(
  'DecideCopyrightClaimRequest',
  z.object({
    outcome: z.enum(COPYRIGHT_OUTCOMES),
    note: z.string().trim().min(1).max(CLAIM_NOTE_MAX).describe('Why, for the staff log'),
  }),
);
export type DecideClaimRequest = z.infer<typeof DecideClaimRequestSchema>;

export const StaffClaimsQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(COPYRIGHT_CLAIM_STATUSES).optional().describe('Only claims in this status; every claim without it'),
});
export type StaffClaimsQuery = z.infer<typeof StaffClaimsQuerySchema>;

/** A claim as staff judge it: both parties, the statements and the counter-notice. */
export const StaffCopyrightClaimSchema = named(
  'StaffCopyrightClaim',
  z.object({
    id: UuidSchema,
    track_id: UuidSchema,
    track_title: z.string().describe('The track’s title when it was claimed'),
    owner_id: UuidSchema.describe('The track’s owner'),
    claimant_id: UuidSchema.nullable().describe('Who filed it; null once their account is gone'),
    claimant_name: z.string().nullable().describe('null once the claimant’s account is gone'),
    claimant_email: z.string().nullable(),
    work_description: z.string(),
    original_url: z.string().nullable(),
    statement_good_faith: z.boolean(),
    statement_accuracy: z.boolean(),
    signature: z.string().nullable(),
    status: CopyrightClaimStatusSchema,
    created_at: TimestampSchema,
    counter_deadline: TimestampSchema,
    counter_statement: z.string().nullable(),
    counter_signature: z.string().nullable(),
    countered_at: TimestampSchema.nullable(),
    decided_at: TimestampSchema.nullable(),
    decided_by: UuidSchema.nullable().describe('The staff member who decided; null when the service upheld it'),
    decision_note: z.string().nullable(),
  }),
);
export type StaffCopyrightClaim = z.infer<typeof StaffCopyrightClaimSchema>;

export const CopyrightClaimEnvelope = envelope(named('CopyrightClaimReply', z.object({ claim: CopyrightClaimSchema })));
export const MyCopyrightClaimsEnvelope = envelope(
  named(
    'MyCopyrightClaims',
    z.object({
      made: z.array(CopyrightClaimSchema).describe(`Claims you filed, newest first (at most ${MY_CLAIMS_LISTED})`),
      received: z
        .array(CopyrightClaimSchema)
        .describe(`Claims against your tracks, newest first (at most ${MY_CLAIMS_LISTED})`),
    }),
  ),
);
export const StaffCopyrightClaimEnvelope = envelope(
  named('StaffCopyrightClaimReply', z.object({ claim: StaffCopyrightClaimSchema })),
);
export const StaffCopyrightClaimPageEnvelope = envelope(
  named('StaffCopyrightClaimPage', pageOf('claims', StaffCopyrightClaimSchema)),
);

export const COUNTER_RULES = `within ${COUNTER_NOTICE_DAYS} days of the claim`;

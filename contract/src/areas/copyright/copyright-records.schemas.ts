import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

// The copyright area's records as their parties see them (the account export, the account's
// standing): kept apart from the requests so that the users area's export imports nothing else.

/** A claim waits for a counter-notice (pending), for staff (countered), or is decided. */
export const COPYRIGHT_CLAIM_STATUSES = ['pending', 'countered', 'upheld', 'rejected'] as const;
export type CopyrightClaimStatus = (typeof COPYRIGHT_CLAIM_STATUSES)[number];
export const CopyrightClaimStatusSchema = named('CopyrightClaimStatus', z.enum(COPYRIGHT_CLAIM_STATUSES));

/** Days the track's owner has to file a counter-notice; without one, the claim is upheld. */
export const COUNTER_NOTICE_DAYS = 14;
/** Months a strike counts. */
export const STRIKE_MONTHS = 12;
/** Active strikes from which the account may not upload. */
export const STRIKES_UPLOADS_DISABLED = 2;
/** Active strikes that suspend the account until an admin lifts it. */
export const STRIKES_SUSPENSION = 3;

/** A claim as its claimant and the track's owner see it: never the claimant's contact details. */
const claimShape = {
  id: UuidSchema,
  track_id: UuidSchema,
  status: CopyrightClaimStatusSchema,
  work_description: z.string(),
  created_at: TimestampSchema,
  counter_deadline: TimestampSchema.describe('The last moment for the owner’s counter-notice'),
  decided_at: TimestampSchema.nullable(),
};
export const CopyrightClaimSchema = named('CopyrightClaim', z.object(claimShape));
export type CopyrightClaim = z.infer<typeof CopyrightClaimSchema>;

/** A strike on an account: a claim upheld against one of its tracks. */
export const StrikeSchema = named(
  'Strike',
  z.object({
    id: UuidSchema,
    claim_id: UuidSchema,
    created_at: TimestampSchema,
    expires_at: TimestampSchema,
    active: z.boolean().describe('Neither expired nor lifted (a granted appeal lifts it)'),
  }),
);
export type Strike = z.infer<typeof StrikeSchema>;

/** A claim the user filed, in their data export: what they stated. */
export const ExportedClaimMadeSchema = named(
  'ExportedCopyrightClaimMade',
  z.object({
    ...claimShape,
    claimant_name: z.string().nullable(),
    claimant_email: z.string().nullable(),
    original_url: z.string().nullable(),
    signature: z.string().nullable(),
  }),
);

/** A claim against the user's track, in their data export: their counter-notice, if any. */
export const ExportedClaimReceivedSchema = named(
  'ExportedCopyrightClaimReceived',
  z.object({
    ...claimShape,
    counter_statement: z.string().nullable(),
    counter_signature: z.string().nullable(),
    countered_at: TimestampSchema.nullable(),
  }),
);

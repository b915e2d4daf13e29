import { z } from 'zod';
import { ClientTimestampSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { MODERATOR_SUSPENSION_MAX_DAYS, SANCTION_KINDS, SUSPENSION_MAX_DAYS } from '../moderation/moderation-states.js';

/** A sanction's reason, as the user is told it. */
export const SANCTION_REASON_MAX = 2000;

const ReasonSchema = z.string().trim().min(1).max(SANCTION_REASON_MAX);

/** A warning, a suspension or a ban of an account, as staff and the account itself see it. */
export const SanctionSchema = named(
  'Sanction',
  z.object({
    id: UuidSchema,
    kind: z.enum(SANCTION_KINDS),
    reason: z.string(),
    actor_id: UuidSchema.nullable().describe('The staff member who decided it'),
    created_at: TimestampSchema,
    ends_at: TimestampSchema.nullable().describe(
      'When a suspension ends by itself; null for a warning, a ban, or a suspension only an admin lifts',
    ),
    lifted_at: TimestampSchema.nullable().describe(
      'When it was lifted (unsuspended, unbanned, or a suspension ran out)',
    ),
    lifted_by: UuidSchema.nullable().describe('Who lifted it; null when it ran out by itself'),
  }),
);
export type Sanction = z.infer<typeof SanctionSchema>;

export const WarnUserRequestSchema = named('WarnUserRequest', z.object({ reason: ReasonSchema }));
export type WarnUserRequest = z.infer<typeof WarnUserRequestSchema>;

export const SuspendUserRequestSchema = named(
  'SuspendUserRequest',
  z.object({
    reason: ReasonSchema,
    until: ClientTimestampSchema.describe(
      `When the suspension ends by itself: in the future, at most ${SUSPENSION_MAX_DAYS} days ahead (a moderator: ${MODERATOR_SUSPENSION_MAX_DAYS})`,
    ),
  }),
);
export type SuspendUserRequest = z.infer<typeof SuspendUserRequestSchema>;

export const BanUserRequestSchema = named('BanUserRequest', z.object({ reason: ReasonSchema }));
export type BanUserRequest = z.infer<typeof BanUserRequestSchema>;

export const SanctionEnvelope = envelope(named('SanctionReply', z.object({ sanction: SanctionSchema })));

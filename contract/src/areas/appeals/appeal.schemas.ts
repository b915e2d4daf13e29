/**
 * An appeal as its appellant and the account export see it. Kept apart from the area's other
 * schemas, which name sanctions and content states, so that the users area's export can import it
 * without a cycle.
 */
import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { MODERATED_CONTENT_TYPES } from '../moderation/moderation-states.js';

/** What may be appealed: a moderation decision about content, a sanction of the account, a copyright strike. */
export const APPEAL_SUBJECT_TYPES = ['content', 'sanction', 'strike'] as const;
export type AppealSubjectType = (typeof APPEAL_SUBJECT_TYPES)[number];
export const APPEAL_STATUSES = ['open', 'granted', 'denied'] as const;
export type AppealStatus = (typeof APPEAL_STATUSES)[number];
export const APPEAL_OUTCOMES = ['granted', 'denied'] as const;
export type AppealOutcome = (typeof APPEAL_OUTCOMES)[number];
/** What the appellant may write. */
export const APPEAL_MESSAGE_MAX = 5000;
/** What staff write with their decision. */
export const APPEAL_NOTE_MAX = 2000;

/** Named, so that its nullable use is a reference (a nullable inline enum lists null among its values). */
export const AppealContentTypeSchema = named('AppealContentType', z.enum(MODERATED_CONTENT_TYPES));

export const AppealSchema = named(
  'Appeal',
  z.object({
    id: UuidSchema,
    subject_type: z.enum(APPEAL_SUBJECT_TYPES),
    subject_id: UuidSchema.describe('The content’s, the sanction’s or the strike’s id'),
    // the content's type (track, comment, …) for a content appeal; null otherwise
    target_type: AppealContentTypeSchema.nullable(),
    message: z.string(),
    status: z.enum(APPEAL_STATUSES),
    created_at: TimestampSchema,
    decided_at: TimestampSchema.nullable(),
    note: z.string().nullable().describe('What staff wrote with their decision; null while open'),
  }),
);
export type Appeal = z.infer<typeof AppealSchema>;

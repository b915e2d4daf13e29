import { z } from 'zod';
import { PaginationQuerySchema, pageOf, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ContentStateSchema } from '../moderation/moderation.schemas.js';
import { StrikeSchema } from '../copyright/copyright-records.schemas.js';
import { SanctionSchema } from '../sanctions/sanctions.schemas.js';
import {
  APPEAL_MESSAGE_MAX,
  APPEAL_NOTE_MAX,
  APPEAL_OUTCOMES,
  APPEAL_STATUSES,
  APPEAL_SUBJECT_TYPES,
  AppealSchema,
} from './appeal.schemas.js';

export * from './appeal.schemas.js';

const MessageSchema = z.string().trim().min(1).max(APPEAL_MESSAGE_MAX);

export const CreateAppealRequestSchema = named(
  'CreateAppealRequest',
  z.object({
    subject_type: z.enum(APPEAL_SUBJECT_TYPES),
    subject_id: UuidSchema,
    message: MessageSchema,
  }),
);
export type CreateAppealRequest = z.infer<typeof CreateAppealRequestSchema>;

export const AppealByTokenRequestSchema = named(
  'AppealByTokenRequest',
  z.object({
    token: z.string().min(1).max(200).describe('The token of the one-time link mailed with the suspension or ban'),
    message: MessageSchema,
  }),
);
export type AppealByTokenRequest = z.infer<typeof AppealByTokenRequestSchema>;

export const DecideAppealRequestSchema = named(
  'DecideAppealRequest',
  z.object({ outcome: z.enum(APPEAL_OUTCOMES), note: z.string().trim().min(1).max(APPEAL_NOTE_MAX) }),
);
export type DecideAppealRequest = z.infer<typeof DecideAppealRequestSchema>;

/** An appeal as staff see it: with whose it is. */
export const StaffAppealSchema = named(
  'StaffAppeal',
  AppealSchema.extend({
    appellant_id: UuidSchema.describe('Whose appeal it is'),
  }),
);
export type StaffAppeal = z.infer<typeof StaffAppealSchema>;

export const AppealQueueQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(APPEAL_STATUSES).default('open'),
});
export type AppealQueueQuery = z.infer<typeof AppealQueueQuerySchema>;

/** A copyright strike as its owner sees it in their standing. */
export const StandingSchema = named(
  'Standing',
  z.object({
    sanctions: z.array(SanctionSchema).describe('Your warnings, suspensions and bans, newest first'),
    strikes: z.array(StrikeSchema).describe('Your copyright strikes, newest first'),
    content: z.array(ContentStateSchema).describe('Your content that moderation hid or removed'),
  }),
);
export type Standing = z.infer<typeof StandingSchema>;

export const AppealEnvelope = envelope(named('AppealReply', z.object({ appeal: AppealSchema })));
export const StaffAppealEnvelope = envelope(named('StaffAppealReply', z.object({ appeal: StaffAppealSchema })));
export const AppealPageEnvelope = envelope(named('AppealPage', pageOf('appeals', AppealSchema)));
export const StaffAppealPageEnvelope = envelope(named('StaffAppealPage', pageOf('appeals', StaffAppealSchema)));
export const StandingEnvelope = envelope(StandingSchema);

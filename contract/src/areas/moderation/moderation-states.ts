/**
 * The enums of trust and safety, declared once: the content areas (tracks, comments, playlists,
 * products, and later groups and courses) carry a moderation status, and the moderation area's
 * reports, cases and sanctions name their targets and reasons with these. Kept apart from the
 * moderation schemas so that a content area's schemas can import them without a cycle.
 */
import { z } from 'zod';

/** hidden and removed content is, for everyone but its owner and staff, as if deleted. */
export const MODERATION_STATUSES = ['visible', 'hidden', 'removed'] as const;
export type ModerationStatus = (typeof MODERATION_STATUSES)[number];
export const ModerationStatusSchema = z.enum(MODERATION_STATUSES);

/** What carries a moderation status (every report target but a user, whose state is their sanctions). */
export const MODERATED_CONTENT_TYPES = [
  'track',
  'comment',
  'playlist',
  'product',
  'group',
  'group_post',
  'course',
] as const;
export type ModeratedContentType = (typeof MODERATED_CONTENT_TYPES)[number];

/** What may be reported: any moderated content, and a user. */
export const REPORT_TARGET_TYPES = [...MODERATED_CONTENT_TYPES, 'user'] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

export const REPORT_REASONS = [
  'spam',
  'harassment',
  'hate',
  'sexual',
  'violence',
  'self_harm',
  'copyright',
  'impersonation',
  'illegal',
  'other',
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** How far ahead a moderator may suspend; longer suspensions (and bans) are an admin's. */
export const MODERATOR_SUSPENSION_MAX_DAYS = 30;
/** How far ahead anyone may suspend; beyond that, a ban. */
export const SUSPENSION_MAX_DAYS = 365;

export const SANCTION_KINDS = ['warn', 'suspend', 'ban'] as const;
export type SanctionKind = (typeof SANCTION_KINDS)[number];

/**
 * The moderation state of a track, comment, playlist or product, present only when it is hidden or
 * removed: such an item reaches nobody but its owner and staff, so nobody else ever sees these.
 */
export const ModerationStateFields = {
  moderation_status: ModerationStatusSchema.optional().describe(
    'Present when moderation hid or removed it (only its owner and staff then see it)',
  ),
  moderation_reason: z.string().nullable().optional(),
};

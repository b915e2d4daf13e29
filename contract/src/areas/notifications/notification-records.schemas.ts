import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { NOTIFICATION_TYPES } from './notification-types.js';

// A notification's subject and the notifications of the account export: apart from
// notifications.schemas.ts, which names the users area's profile, so that the users area's
// export can name them.

/** Kept this long, then deleted by a daily job. */
export const NOTIFICATION_RETENTION_DAYS = 90;

/** What a notification is about. */
export const NOTIFICATION_SUBJECT_TYPES = [
  'track',
  'comment',
  'user',
  'playlist',
  'product',
  'order',
  'group',
  'course',
] as const;
export type NotificationSubjectType = (typeof NOTIFICATION_SUBJECT_TYPES)[number];

export const NotificationSubjectSchema = named(
  'NotificationSubject',
  z.object({
    type: z.enum(NOTIFICATION_SUBJECT_TYPES),
    id: UuidSchema,
    title: z
      .string()
      .describe('The track’s or playlist’s title, the product’s, the user’s name; a comment’s first words'),
  }),
);
export type NotificationSubject = z.infer<typeof NotificationSubjectSchema>;

/** A notification as the account export holds it: as it was said (its subject as named then), its actors by id. */
export const ExportedNotificationSchema = named(
  'ExportedNotification',
  z.object({
    id: UuidSchema,
    type: z.enum(NOTIFICATION_TYPES),
    actor_ids: z
      .array(UuidSchema)
      .describe('Who did it, newest first (every one of a fold); empty for the platform; deleted accounts left out'),
    count: z.number().int().min(1).describe('How many did it: more than 1 when likes of one track were folded'),
    // what it was about, as it was named when it happened
    subject: NotificationSubjectSchema.nullable(),
    message: z.string(),
    created_at: TimestampSchema.describe('When it last happened (a fold moves it)'),
    read_at: TimestampSchema.nullable(),
    in_app: z
      .boolean()
      .describe('Shown in the inbox; false for one kept only for the daily mail digest (your preferences then)'),
  }),
);
export type ExportedNotification = z.infer<typeof ExportedNotificationSchema>;

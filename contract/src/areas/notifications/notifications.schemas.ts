import { z } from 'zod';
import {
  PaginationQuerySchema,
  pageOf,
  queryBoolean,
  TimestampSchema,
  UuidSchema,
} from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ProfileSchema } from '../users/users.schemas.js';
import { NotificationSubjectSchema } from './notification-records.schemas.js';
import { NOTIFICATION_TYPES } from './notification-types.js';

export * from './notification-types.js';
export * from './notification-records.schemas.js';

/** Likes of one track within this window fold into one notification. */
export const NOTIFICATION_FOLD_MINUTES = 60;
/** A folded notification shows at most this many actors, newest first. */
export const NOTIFICATION_ACTORS_SHOWN = 3;
/** At most this many ids in one POST /notifications/read. */
export const NOTIFICATION_READ_IDS_MAX = 100;

/**
 * One notification. `actor` is who did it (the newest of them when folded), null for the platform or
 * a deleted account; `subject` is what it is about, null once the reader may no longer see it.
 */
export const NotificationSchema = named(
  'Notification',
  z.object({
    id: UuidSchema,
    type: z.enum(NOTIFICATION_TYPES),
    actor: ProfileSchema.nullable(),
    actors: z
      .array(ProfileSchema)
      .max(NOTIFICATION_ACTORS_SHOWN)
      .describe(
        `When folded (count above 1): up to ${NOTIFICATION_ACTORS_SHOWN} of those who did it, newest first; else empty`,
      ),
    count: z.number().int().min(1).describe('How many did it: more than 1 when likes of one track were folded'),
    subject: NotificationSubjectSchema.nullable(),
    message: z.string(),
    created_at: TimestampSchema.describe('When it last happened (a fold moves it)'),
    read_at: TimestampSchema.nullable(),
  }),
);
export type Notification = z.infer<typeof NotificationSchema>;

export const NotificationListQuerySchema = PaginationQuerySchema.extend({
  unread: queryBoolean().optional().describe('true: unread notifications only'),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

export const NotificationPageSchema = named('NotificationPage', pageOf('notifications', NotificationSchema));

export const UnreadCountSchema = named('UnreadNotificationCount', z.object({ count: z.number().int().min(0) }));

export const MarkNotificationsReadRequestSchema = named(
  'MarkNotificationsReadRequest',
  z
    .object({
      ids: z.array(UuidSchema).min(1).max(NOTIFICATION_READ_IDS_MAX).optional().describe('These notifications'),
      all: z.literal(true).optional().describe('Every notification of the caller'),
    })
    .refine((body) => (body.ids === undefined) !== (body.all === undefined), {
      message: 'send either ids or all: true',
      path: ['ids'],
    }),
);
export type MarkNotificationsReadRequest = z.infer<typeof MarkNotificationsReadRequestSchema>;

export const MarkNotificationsReadReplySchema = named(
  'MarkNotificationsReadReply',
  z.object({ updated: z.number().int().min(0).describe('How many were unread and are read now') }),
);

import { z } from 'zod';
import { named } from '../../common/openapi-meta.js';

// Apart from notifications.schemas.ts because the users area's preferences name these too, and
// the notification schemas name the users area's profile.

/** Every kind of notification; each has its own preference (in-app, email). */
export const NOTIFICATION_TYPES = [
  'follow',
  'like',
  'repost',
  'comment',
  'reply',
  'collaborator_added',
  'group_join_request',
  'group_joined',
  'group_post',
  'sale',
  'course_enrolled',
  'course_completed',
  'order_completed',
  'order_refunded',
  'moderation',
  'announcement',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** One type's delivery choice in the preferences. */
export const NotificationChannelsSchema = named(
  'NotificationChannels',
  z.object({
    in_app: z.boolean().describe('Shown in the inbox (and live)'),
    email: z.boolean().describe('Included in the daily mail digest'),
  }),
);
export type NotificationChannels = z.infer<typeof NotificationChannelsSchema>;

/** The defaults: every type in the inbox, none by mail. */
export const DEFAULT_NOTIFICATION_CHANNELS: NotificationChannels = { in_app: true, email: false };

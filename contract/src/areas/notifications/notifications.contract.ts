import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userRoute } from '../../common/route-meta.js';
import {
  MarkNotificationsReadReplySchema,
  MarkNotificationsReadRequestSchema,
  NOTIFICATION_FOLD_MINUTES,
  NOTIFICATION_RETENTION_DAYS,
  NotificationListQuerySchema,
  NotificationPageSchema,
  UnreadCountSchema,
} from './notifications.schemas.js';

const c = initContract();

const INBOX_RULES =
  'Notifications are made from what happens (a follow, a like, a comment, a sale…) by a job, shortly after it commits, ' +
  'for the types the user keeps in the inbox (`notifications` in /users/me/preferences; every type by default). Nothing ' +
  `comes from a user one blocked or who blocked one. Likes of one track within ${NOTIFICATION_FOLD_MINUTES} minutes fold into ` +
  `one notification (count, newest actors first). Kept ${NOTIFICATION_RETENTION_DAYS} days.`;

/** The caller's notification inbox. */
export const notificationsContract = c.router({
  list: {
    method: 'GET',
    path: '/notifications',
    summary: 'Your notifications',
    description: `Newest first; \`unread=true\` for the unread ones only. ${INBOX_RULES}`,
    metadata: userRoute,
    query: NotificationListQuerySchema,
    responses: { 200: envelope(NotificationPageSchema), ...errors(400, 401, 403) },
  },
  unreadCount: {
    method: 'GET',
    path: '/notifications/unread-count',
    summary: 'How many of your notifications are unread',
    metadata: userRoute,
    responses: { 200: envelope(UnreadCountSchema), ...errors(401, 403) },
  },
  markRead: {
    method: 'POST',
    path: '/notifications/read',
    summary: 'Mark notifications read',
    description:
      'Either `ids` (of the caller’s notifications; other ids are ignored) or `all: true`. Replies how many were unread and are read now.',
    metadata: userRoute,
    body: MarkNotificationsReadRequestSchema,
    responses: { 200: envelope(MarkNotificationsReadReplySchema), ...errors(400, 401, 403, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/notifications/:id',
    summary: 'Delete a notification',
    description: 'Another user’s notification is 404.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
});

/** Examples of the notifications area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { onePage, TRACK_ID, UPDATED } from '../../common/common.examples.js';
import { exportedNotification, profile } from '../users/users.examples.js';
import type { Notification } from './notifications.schemas.js';

const notification: Notification = {
  id: '3e7a1c9b-5d2f-4a8e-b6c1-0f9d2e4a7b3c',
  type: 'repost',
  actor: profile,
  actors: [],
  count: 1,
  subject: { type: 'track', id: TRACK_ID, title: 'Night Drive' },
  message: 'theo.marsh reposted your track Night Drive',
  created_at: UPDATED,
  read_at: null,
};

export const NOTIFICATIONS_EXAMPLES: Record<string, unknown> = {
  NotificationSubject: notification.subject,
  Notification: notification,
  NotificationPage: { notifications: [notification], pagination: onePage(1) },
  UnreadNotificationCount: { count: 4 },
  MarkNotificationsReadRequest: { ids: [notification.id] },
  MarkNotificationsReadReply: { updated: 1 },
  NotificationChannels: { in_app: true, email: false },
  ExportedNotification: exportedNotification,
};

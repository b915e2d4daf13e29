import './notifications.jobs.js';
import type { AnnouncementAudience } from '@riff/contract';
import { userActor, type AccountUser } from '../../platform/access/actor.js';
import { announcementDelivery } from './announcement-delivery.js';
import type { NotificationRow } from './notifications.tables.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { AccountContact } from '../users/people-reader.js';
import { eventNotifier } from './event-notifier.js';
import { NotificationDigest } from './notification-digest.js';
import type {
  NotificationChannelsOf,
  NotificationChannelsOfEach,
  NotificationSources,
} from './notification-sources.js';
import { NotificationsRepository } from './notifications.repository.js';
import { notificationsRoutes } from './notifications.routes.js';
import { NotificationsService } from './notifications.service.js';

const DAY_MS = 86_400_000;

export type NotificationsModule = RiffModule & {
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: { notifications: NotificationsService; digest: NotificationDigest };
};

/**
 * The notification inbox: made from committed events by a job (the event notifier), read, marked
 * read and deleted by its owner, mailed as a daily digest for the types the user chose, pruned
 * after the retention period.
 */
export function createNotificationsModule(
  platform: Platform,
  deps: {
    sources: NotificationSources;
    channels: NotificationChannelsOf;
    /** The same for many recipients in one read (an announcement's batch). */
    channelsOfEach: NotificationChannelsOfEach;
    blockedWith(userId: string): Promise<string[]>;
    contact(userId: string): Promise<AccountContact | undefined>;
    /** A page of the accounts an announcement reaches, by id after `after`. */
    audiencePage(audience: AnnouncementAudience, after: string | null, limit: number): Promise<string[]>;
    /** The recipients' accounts that may still act: a notification goes live to their sockets only then. */
    activeUsers(userIds: readonly string[]): Promise<Map<string, AccountUser>>;
  },
): NotificationsModule {
  const { scope, clock, mail, config } = platform;
  const notifications = new NotificationsRepository(scope);
  const service = new NotificationsService({
    clock,
    notifications,
    sources: { ...deps.sources, blockedWith: deps.blockedWith },
  });
  // notifications just filed reach their recipients' open sockets, as each one's inbox shows them;
  // the recipients are read at once (an announcement's batch has hundreds)
  async function delivered(rows: readonly NotificationRow[]): Promise<void> {
    if (rows.length === 0) return;
    const accounts = await deps.activeUsers([...new Set(rows.map((row) => row.user_id))]);
    for (const row of rows) {
      const account = accounts.get(row.user_id);
      if (!account) continue;
      const [shown] = await service.shown(userActor(account, 'bearer'), [row]);
      if (shown) platform.pushes.push(row.user_id, { type: 'notification', data: shown });
    }
  }
  const digest = new NotificationDigest({
    scope,
    notifications,
    mail,
    contact: deps.contact,
    appBaseUrl: config.appBaseUrl,
  });
  const announcements = announcementDelivery({
    scope,
    clock,
    jobs: platform.jobs,
    notifications,
    channels: deps.channelsOfEach,
    audiencePage: deps.audiencePage,
    delivered,
  });
  return {
    name: 'notifications',
    services: { notifications: service, digest },
    routes: { notifications: notificationsRoutes(service) },
    eventHandlers: [
      eventNotifier({
        scope,
        clock,
        notifications,
        sources: deps.sources,
        channels: deps.channels,
        delivered: (row) => delivered([row]),
      }),
      announcements.handler,
    ],
    jobs: [
      { name: 'notifications.announce', handle: (batch) => announcements.deliverBatch(batch) },
      { name: 'notifications.digest', everyMs: DAY_MS, handle: () => digest.run() },
      { name: 'notifications.prune', everyMs: DAY_MS, handle: () => service.prune() },
    ],
    accountData: { export: (owner) => service.exportFor(owner), erase: (owner) => service.eraseFor(owner) },
  };
}

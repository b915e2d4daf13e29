import {
  NOTIFICATION_RETENTION_DAYS,
  type MarkNotificationsReadRequest,
  type Notification,
  type NotificationListQuery,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import { notFound } from '../../platform/errors/app-error.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { NotificationSources } from './notification-sources.js';
import { toExportedNotification, toNotification } from './notifications.mapper.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { NotificationRow } from './notifications.tables.js';

const DAY_MS = 86_400_000;

export interface NotificationsServiceDeps {
  clock: Clock;
  notifications: NotificationsRepository;
  sources: Pick<NotificationSources, 'profiles' | 'visibleSubjects'> & {
    /** The users this one blocked and those who blocked them: nothing of theirs is shown. */
    blockedWith(userId: string): Promise<string[]>;
  };
}

/** The caller's inbox: read, marked read, deleted; kept NOTIFICATION_RETENTION_DAYS. */
export class NotificationsService {
  constructor(private readonly deps: NotificationsServiceDeps) {}

  async list(actor: UserActor, query: NotificationListQuery) {
    const window = pageWindow(query.page, query.limit);
    const hidden = await this.deps.sources.blockedWith(actor.id);
    const { rows, total } = await this.deps.notifications.page(
      actor.id,
      { unreadOnly: query.unread === true, hiddenActors: hidden },
      window.limit,
      window.offset,
    );
    return { notifications: await this.shown(actor, rows), pagination: paginate(window, total) };
  }

  async unreadCount(actor: UserActor) {
    const hidden = await this.deps.sources.blockedWith(actor.id);
    return { count: await this.deps.notifications.unreadCount(actor.id, hidden) };
  }

  async markRead(actor: UserActor, body: MarkNotificationsReadRequest) {
    const ids = body.all ? 'all' : (body.ids ?? []);
    return { updated: await this.deps.notifications.markRead(actor.id, ids, this.deps.clock.now()) };
  }

  async remove(actor: UserActor, id: string) {
    if (!(await this.deps.notifications.remove(actor.id, id))) throw notFound('Notification');
    return { message: 'Notification deleted' };
  }

  /** Deletes what is older than the retention period; returns how many went. */
  async prune(): Promise<number> {
    return this.deps.notifications.deleteBefore(
      new Date(this.deps.clock.now().getTime() - NOTIFICATION_RETENTION_DAYS * DAY_MS),
    );
  }

  /** Every notification the account holds, for its data export. */
  async exportFor(owner: UserActor) {
    return { notifications: (await this.deps.notifications.allOf(owner.id)).map(toExportedNotification) };
  }

  /** An erased account: its inbox goes, and others' notifications no longer name it. */
  async eraseFor(owner: UserActor) {
    const removed = await this.deps.notifications.removeAllOf(owner.id);
    await this.deps.notifications.forgetActor(owner.id);
    return { removed_notifications: removed };
  }

  /** Notifications as their reader sees them: actors they may see, subjects still theirs to see. */
  async shown(reader: UserActor, rows: readonly NotificationRow[]): Promise<Notification[]> {
    const actorIds = [...new Set(rows.flatMap((row) => row.actor_ids))];
    const subjects = rows.flatMap((row) =>
      row.subject_type && row.subject_id ? [{ type: row.subject_type, id: row.subject_id }] : [],
    );
    // an announcement names no one and nothing: nothing to look up (a batch delivers hundreds of them)
    if (actorIds.length === 0 && subjects.length === 0) {
      return rows.map((row) => toNotification(row, new Map(), new Set()));
    }
    const [profiles, visible] = await Promise.all([
      this.deps.sources.profiles(actorIds, reader),
      this.deps.sources.visibleSubjects(reader, subjects),
    ]);
    return rows.map((row) => toNotification(row, profiles, visible));
  }
}

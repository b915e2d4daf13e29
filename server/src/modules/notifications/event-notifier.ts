import { NOTIFICATION_FOLD_MINUTES, type NotificationSubjectType, type NotificationType } from '@riff/contract';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { DomainEvent, EventHandler } from '../../platform/events/event-bus.js';
import type { EventMap, EventType } from '../../platform/events/event-map.js';
import type { NotificationChannelsOf, NotificationSources } from './notification-sources.js';
import type { NotificationsRepository } from './notifications.repository.js';
import type { NotificationRow } from './notifications.tables.js';
import '../sanctions/sanctions.events.js';
import '../copyright/copyright.events.js';
import { copyrightNotice } from '../copyright/copyright.notices.js';
import '../appeals/appeals.events.js';
import '../groups/groups.events.js';
import '../group-posts/group-posts.events.js';
import '../courses/courses.events.js';

/** The actors a fold keeps by name; its count goes on beyond them. */
const FOLD_ACTORS_KEPT = 50;
const SNIPPET_CHARS = 80;

/** What one event tells one user. */
interface Notice {
  recipientId: string;
  type: NotificationType;
  actorId: string | null;
  subject: { type: NotificationSubjectType; id: string; title: string } | null;
  /** The sentence after the actor's name ("liked your track Night Drive"), or the whole message without an actor. */
  says: string;
  /** Folds into the open notification of the same key (likes of one track). */
  foldKey?: string;
  /** Told whatever the recipient's preferences say (a moderation decision about them), in the inbox. */
  always?: boolean;
}

const snippet = (text: string) => (text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS - 1)}…` : text);

/** The events that notify someone. */
export const NOTIFYING_EVENTS = [
  'user.followed',
  'track.liked',
  'track.reposted',
  'comment.created',
  'playlist.collaborator_added',
  'product.sold',
  'order.completed',
  'order.refunded',
  'user.warned',
  'user.suspended',
  'user.unsuspended',
  'user.banned',
  'user.unbanned',
  'content.moderated',
  'report.closed',
  'copyright.claimed',
  'copyright.countered',
  'copyright.upheld',
  'copyright.rejected',
  'appeal.granted',
  'appeal.denied',
  'group.join_requested',
  'group.member_joined',
  'group.post_created',
  'course.enrolled',
  'course.completed',
] as const satisfies readonly EventType[];

const CONTENT_NAMES: Record<string, string> = {
  track: 'track',
  comment: 'comment',
  playlist: 'playlist',
  product: 'product',
};
const SUBJECT_TYPES = new Set<string>(['track', 'comment', 'playlist', 'product', 'user']);

/** What staff's change to someone's content tells its owner: what happened and why, never who did it. */
function contentMessage(data: EventMap['content.moderated']): string {
  const what = `Your ${CONTENT_NAMES[data.target_type] ?? data.target_type}${data.title ? ` ${snippet(data.title)}` : ''}`;
  const why = data.reason ? `: ${data.reason}` : '';
  if (data.status === 'visible') return `${what} was restored by the moderators`;
  return `${what} was ${data.status === 'hidden' ? 'hidden' : 'removed'} by the moderators${why}. You may appeal.`;
}

const utc = (iso: string) => `${iso.replace('T', ' ').slice(0, 16)} UTC`;

/** What a sanction (or its end) tells the account: the decision and its reason, never who took it. */
function sanctionMessage(event: DomainEvent): string {
  const data = event.data as Record<string, unknown>;
  const reason = typeof data['reason'] === 'string' ? data['reason'] : '';
  switch (event.type) {
    case 'user.warned':
      return `You received a warning from the moderators: ${reason}`;
    case 'user.suspended': {
      const until = typeof data['until'] === 'string' ? `until ${utc(data['until'])}` : 'until an admin lifts it';
      return `Your account was suspended ${until}: ${reason}`;
    }
    case 'user.unsuspended':
      return 'Your account’s suspension has ended';
    case 'user.banned':
      return `Your account was banned: ${reason}`;
    default:
      return 'Your account’s ban was lifted';
  }
}

/** What staff's decision on an appeal tells the appellant: the outcome and the note, never who decided. */
function appealMessage(granted: boolean, data: EventMap['appeal.granted']): string {
  const what =
    data.subject_type === 'content'
      ? `of the moderation of your ${CONTENT_NAMES[data.target_type ?? ''] ?? data.target_type ?? 'content'}`
      : data.subject_type === 'sanction'
        ? 'of a sanction of your account'
        : 'of a copyright strike';
  const outcome = granted
    ? `was granted${data.subject_type === 'content' ? ': it is visible again' : data.subject_type === 'strike' ? ': the strike is lifted' : ''}`
    : 'was reviewed and denied';
  return `Your appeal ${what} ${outcome}. The moderators’ note: ${data.note}`;
}

/**
 * Turns committed events into notifications (an after-commit handler, so a job, never inline in
 * the request): finds whom the event concerns, skips the actor themselves and anyone blocked
 * either way, and files it as the recipient's preferences for its type say (in the inbox, in the
 * daily digest, or neither). Likes of one track within NOTIFICATION_FOLD_MINUTES fold into one.
 * Idempotent enough for a redelivered event: a like already folded in is not counted twice.
 */
export function eventNotifier(deps: {
  scope: DbScope;
  clock: Clock;
  notifications: NotificationsRepository;
  sources: NotificationSources;
  channels: NotificationChannelsOf;
  /** A notification just filed in the inbox, for the recipient's open live sockets. */
  delivered(row: NotificationRow): Promise<void>;
}): EventHandler<(typeof NOTIFYING_EVENTS)[number]> {
  const { sources } = deps;

  async function noticesOf(event: DomainEvent): Promise<Notice[]> {
    const data = event.data as Record<string, unknown>;
    const actorId = event.actorId;
    const subjectId = event.subject.id;
    if (!subjectId) return [];
    switch (event.type) {
      case 'user.followed':
        if (!actorId) return [];
        return [
          {
            recipientId: subjectId,
            type: 'follow',
            actorId,
            subject: { type: 'user', id: actorId, title: (await sources.name(actorId)) ?? '' },
            says: 'followed you',
          },
        ];
      case 'track.liked':
      case 'track.reposted': {
        const track = await sources.track(subjectId);
        if (!track) return [];
        const liked = event.type === 'track.liked';
        return [
          {
            recipientId: track.ownerId,
            type: liked ? 'like' : 'repost',
            actorId,
            subject: { type: 'track', id: subjectId, title: track.title },
            says: `${liked ? 'liked' : 'reposted'} your track ${track.title}`,
            ...(liked ? { foldKey: `like:${subjectId}` } : {}),
          },
        ];
      }
      case 'comment.created': {
        const trackId = String(data['track_id']);
        const track = await sources.track(trackId);
        const comment = await sources.comment(subjectId);
        if (!track || !comment) return [];
        const subject = { type: 'comment' as const, id: subjectId, title: snippet(comment.content) };
        const notices: Notice[] = [];
        const parentId = data['parent_id'] ? String(data['parent_id']) : null;
        const parentAuthor = parentId ? (await sources.comment(parentId))?.authorId : undefined;
        if (parentAuthor)
          notices.push({
            recipientId: parentAuthor,
            type: 'reply',
            actorId,
            subject,
            says: `replied to your comment on ${track.title}: “${subject.title}”`,
          });
        // the track's owner hears of every comment, unless the reply already told them
        if (track.ownerId !== parentAuthor)
          notices.push({
            recipientId: track.ownerId,
            type: 'comment',
            actorId,
            subject,
            says: `commented on your track ${track.title}: “${subject.title}”`,
          });
        return notices;
      }
      case 'playlist.collaborator_added': {
        const playlist = await sources.playlist(subjectId);
        if (!playlist) return [];
        return [
          {
            recipientId: String(data['user_id']),
            type: 'collaborator_added',
            actorId,
            subject: { type: 'playlist', id: subjectId, title: playlist.title },
            says: `added you as a collaborator on the playlist ${playlist.title}`,
          },
        ];
      }
      case 'product.sold': {
        const product = await sources.product(subjectId);
        if (!product || !event.userId) return [];
        const buyerId = await sources.orderBuyer(String(data['order_id']));
        return [
          {
            recipientId: event.userId,
            type: 'sale',
            actorId: buyerId ?? null,
            subject: { type: 'product', id: subjectId, title: product.title },
            says: buyerId ? `bought your product ${product.title}` : `Your product ${product.title} was bought`,
          },
        ];
      }
      case 'group.join_requested': {
        // the owner and the group's admins decide requests: each of them hears of one
        const group = await sources.group(subjectId);
        const userId = String(data['user_id']);
        if (!group) return [];
        return group.adminIds.map((recipientId) => ({
          recipientId,
          type: 'group_join_request' as const,
          actorId: userId,
          subject: { type: 'group' as const, id: subjectId, title: group.name },
          says: `asked to join your group ${group.name}`,
        }));
      }
      case 'group.member_joined': {
        // the one who joined is the actor, whoever let them in (an admin's approval)
        const group = await sources.group(subjectId);
        if (!group) return [];
        return [
          {
            recipientId: group.ownerId,
            type: 'group_joined',
            actorId: String(data['user_id']),
            subject: { type: 'group', id: subjectId, title: group.name },
            says: `joined your group ${group.name}`,
          },
        ];
      }
      case 'group.post_created': {
        // the group's owner hears of every post and reply in it (but their own: the actor is never told)
        const groupId = String(data['group_id']);
        const group = await sources.group(groupId);
        if (!group) return [];
        return [
          {
            recipientId: group.ownerId,
            type: 'group_post',
            actorId,
            subject: { type: 'group', id: groupId, title: group.name },
            says: `${data['parent_id'] ? 'replied in' : 'posted in'} your group ${group.name}`,
          },
        ];
      }
      case 'course.enrolled':
      case 'course.completed': {
        // the instructor hears of each learner who enrolls in or completes their course
        const course = await sources.course(subjectId);
        if (!course) return [];
        const enrolled = event.type === 'course.enrolled';
        return [
          {
            recipientId: course.instructorId,
            type: enrolled ? 'course_enrolled' : 'course_completed',
            actorId,
            subject: { type: 'course', id: subjectId, title: course.title },
            says: `${enrolled ? 'enrolled in' : 'completed'} your course ${course.title}`,
          },
        ];
      }
      case 'order.completed':
      case 'order.refunded': {
        if (!event.userId) return [];
        const completed = event.type === 'order.completed';
        const title = `Order ${subjectId.slice(0, 8)}`;
        return [
          {
            recipientId: event.userId,
            type: completed ? 'order_completed' : 'order_refunded',
            actorId: null,
            subject: { type: 'order', id: subjectId, title },
            says: completed
              ? `Your order ${subjectId.slice(0, 8)} is complete`
              : `Your order ${subjectId.slice(0, 8)} was refunded`,
          },
        ];
      }
      case 'user.warned':
      case 'user.suspended':
      case 'user.unsuspended':
      case 'user.banned':
      case 'user.unbanned':
        return [
          {
            recipientId: subjectId,
            type: 'moderation',
            actorId: null,
            subject: null,
            says: sanctionMessage(event),
            always: true,
          },
        ];
      case 'content.moderated': {
        const moderated = data as EventMap['content.moderated'];
        if (!event.userId) return [];
        const subject = SUBJECT_TYPES.has(moderated.target_type)
          ? {
              type: moderated.target_type as NotificationSubjectType,
              id: subjectId,
              title: snippet(moderated.title ?? ''),
            }
          : null;
        return [
          {
            recipientId: event.userId,
            type: 'moderation',
            actorId: null,
            subject,
            says: contentMessage(moderated),
            always: true,
          },
        ];
      }
      case 'report.closed': {
        const closed = data as EventMap['report.closed'];
        if (!event.userId) return [];
        const outcome = closed.outcome === 'action_taken' ? 'action was taken' : 'no violation was found';
        return [
          {
            recipientId: event.userId,
            type: 'moderation',
            actorId: null,
            subject: null,
            says: `Thank you for your report of a ${closed.target_type.replace('_', ' ')}: the moderators reviewed it and ${outcome}.`,
            always: true,
          },
        ];
      }
      case 'copyright.claimed':
      case 'copyright.countered':
      case 'copyright.upheld':
      case 'copyright.rejected': {
        if (!event.userId) return [];
        const says = copyrightNotice(event.type, event.data as EventMap['copyright.claimed']);
        if (!says) return [];
        return [{ recipientId: event.userId, type: 'moderation', actorId: null, subject: null, says, always: true }];
      }
      case 'appeal.granted':
      case 'appeal.denied': {
        if (!event.userId) return [];
        return [
          {
            recipientId: event.userId,
            type: 'moderation',
            actorId: null,
            subject: null,
            says: appealMessage(event.type === 'appeal.granted', event.data as EventMap['appeal.granted']),
            always: true,
          },
        ];
      }
      default:
        return [];
    }
  }

  /** "theo liked…", "theo and 2 others liked…", or the sentence alone when nobody is named. */
  async function messageOf(notice: Notice, actorIds: readonly string[], count: number): Promise<string> {
    const newest = actorIds[0];
    const name = newest ? await sources.name(newest) : undefined;
    if (!name) return notice.says;
    const others = count - 1;
    return `${name}${others > 0 ? ` and ${others} other${others === 1 ? '' : 's'}` : ''} ${notice.says}`;
  }

  async function file(notice: Notice, at: Date): Promise<NotificationRow | undefined> {
    if (notice.actorId === notice.recipientId) return;
    if (notice.actorId && (await sources.blockedEitherWay(notice.recipientId, notice.actorId))) return;
    const channels = notice.always
      ? (await sources.name(notice.recipientId)) === undefined
        ? undefined
        : { in_app: true, email: false }
      : await deps.channels(notice.recipientId, notice.type);
    if (!channels || (!channels.in_app && !channels.email)) return;
    const { notifications, scope } = deps;
    return scope.transaction(async () => {
      if (notice.foldKey) {
        await notifications.lockFold(notice.recipientId, notice.foldKey);
        const since = new Date(at.getTime() - NOTIFICATION_FOLD_MINUTES * 60_000);
        const open = await notifications.openFold(notice.recipientId, notice.foldKey, since);
        if (open) {
          const seen = notice.actorId ? open.actor_ids.includes(notice.actorId) : false;
          const others = open.actor_ids.filter((id) => id !== notice.actorId);
          const actorIds = notice.actorId ? [notice.actorId, ...others].slice(0, FOLD_ACTORS_KEPT) : open.actor_ids;
          const count = seen ? open.count : open.count + 1;
          return notifications.fold(open.id, {
            actor_ids: actorIds,
            count,
            message: await messageOf(notice, actorIds, count),
            created_at: at,
            email_due: open.email_due || channels.email,
          });
        }
      }
      const actorIds = notice.actorId ? [notice.actorId] : [];
      return notifications.insert({
        user_id: notice.recipientId,
        type: notice.type,
        actor_ids: actorIds,
        count: 1,
        subject_type: notice.subject?.type ?? null,
        subject_id: notice.subject?.id ?? null,
        subject_title: notice.subject?.title ?? null,
        message: await messageOf(notice, actorIds, 1),
        fold_key: notice.foldKey ?? null,
        in_app: channels.in_app,
        email_due: channels.email,
        first_at: at,
        created_at: at,
      });
    });
  }

  return {
    name: 'notifications',
    types: NOTIFYING_EVENTS,
    async handle(event) {
      // on the service's clock, as the inbox's retention is: the job runs moments after the event
      const at = deps.clock.now();
      for (const notice of await noticesOf(event)) {
        const filed = await file(notice, at);
        if (filed?.in_app) await deps.delivered(filed);
      }
    },
  };
}

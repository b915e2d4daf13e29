import type { WebhookEventType } from '@riff/contract';
import type { EventType } from '../../platform/events/event-map.js';
import '../sanctions/sanctions.events.js';
import '../moderation/moderation.events.js';
import '../copyright/copyright.events.js';
import '../appeals/appeals.events.js';
import '../groups/groups.events.js';
import '../group-posts/group-posts.events.js';

/**
 * What a webhook event is about, which says whom it goes to and how its data is made:
 * - track, comment: the track's owner; playlist: its owner; order: the buyer; product: the seller;
 *   user: the followed user; account: the sanctioned account (its subject); group: the group's
 *   owner (named in the event's data: a group changes hands); group_post: the owner of the post's group, likewise;
 * - content, report, claim, strike, appeal (trust and safety): the event's own user, as the area
 *   that recorded it chose it (the content's owner, the reporter, each party of a claim, the
 *   strike's account, the appellant). Those areas record one event per user concerned, each
 *   carrying only what that user may know.
 */
export type Concerns =
  | 'track'
  | 'comment'
  | 'user'
  | 'playlist'
  | 'order'
  | 'product'
  | 'account'
  | 'group'
  | 'group_post'
  | TrustConcerns;
export type TrustConcerns = 'content' | 'report' | 'claim' | 'strike' | 'appeal';

export interface WebhookRoute {
  type: WebhookEventType;
  about: Concerns;
}

/** Each domain event that has a webhook event: its name there, and what it is about. */
export const ROUTES: Partial<Record<EventType, WebhookRoute>> = {
  'track.uploaded': { type: 'track.created', about: 'track' },
  'track.updated': { type: 'track.updated', about: 'track' },
  'track.deleted': { type: 'track.deleted', about: 'track' },
  'track.processed': { type: 'track.processed', about: 'track' },
  'track.liked': { type: 'track.liked', about: 'track' },
  'track.reposted': { type: 'track.reposted', about: 'track' },
  'comment.created': { type: 'comment.created', about: 'comment' },
  'user.followed': { type: 'user.followed', about: 'user' },
  'playlist.created': { type: 'playlist.created', about: 'playlist' },
  'playlist.updated': { type: 'playlist.updated', about: 'playlist' },
  'playlist.deleted': { type: 'playlist.deleted', about: 'playlist' },
  'playlist.track_added': { type: 'playlist.track_added', about: 'playlist' },
  'playlist.track_removed': { type: 'playlist.track_removed', about: 'playlist' },
  'order.created': { type: 'order.created', about: 'order' },
  'order.completed': { type: 'order.completed', about: 'order' },
  'order.refunded': { type: 'order.refunded', about: 'order' },
  'product.sold': { type: 'product.sold', about: 'product' },
  // a suspension and a ban reach nobody: the account's webhooks stop with it
  'user.warned': { type: 'user.warned', about: 'account' },
  'user.suspended': { type: 'user.suspended', about: 'account' },
  'user.unsuspended': { type: 'user.unsuspended', about: 'account' },
  'user.banned': { type: 'user.banned', about: 'account' },
  'user.unbanned': { type: 'user.unbanned', about: 'account' },
  // one event for every change of state (hidden, removed, visible again), the new and the previous
  // state in its data, as track.processed carries its outcome: a receiver that mirrors the state
  // subscribes once, and a transition such as hidden to removed needs no name of its own
  'content.moderated': { type: 'content.moderated', about: 'content' },
  // resolved or dismissed alike (the report's status and outcome say which); to the reporter only:
  // the reported user hears of the decision (content.moderated, user.warned…), never of reports
  'report.closed': { type: 'report.closed', about: 'report' },
  'copyright.claimed': { type: 'copyright.claimed', about: 'claim' },
  'copyright.countered': { type: 'copyright.countered', about: 'claim' },
  'copyright.upheld': { type: 'copyright.upheld', about: 'claim' },
  'copyright.rejected': { type: 'copyright.rejected', about: 'claim' },
  'strike.added': { type: 'strike.added', about: 'strike' },
  'strike.lifted': { type: 'strike.lifted', about: 'strike' },
  'appeal.created': { type: 'appeal.created', about: 'appeal' },
  'appeal.granted': { type: 'appeal.granted', about: 'appeal' },
  'appeal.denied': { type: 'appeal.denied', about: 'appeal' },
  'group.created': { type: 'group.created', about: 'group' },
  'group.member_joined': { type: 'group.member_joined', about: 'group' },
  'group.post_created': { type: 'group.post_created', about: 'group_post' },
};

export const WEBHOOK_SOURCE_EVENTS = Object.keys(ROUTES) as EventType[];

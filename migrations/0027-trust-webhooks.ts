import type { Kysely } from 'kysely';
import { constrainWebhookEvents, withdrawWebhookEvents } from './support/webhook-event-checks.js';

/**
 * Trust and safety's other events join the webhook events, each for the user it concerns: the
 * moderation of their content, the close of their report, the copyright claims and strikes of
 * either party, and their appeals (the CHECKs spell the contract's WEBHOOK_EVENT_TYPES:
 * enum-constraints test).
 */
const BEFORE = [
  'track.created',
  'track.updated',
  'track.deleted',
  'track.processed',
  'track.liked',
  'track.reposted',
  'comment.created',
  'user.followed',
  'playlist.created',
  'playlist.updated',
  'playlist.deleted',
  'playlist.track_added',
  'playlist.track_removed',
  'order.created',
  'order.completed',
  'order.refunded',
  'product.sold',
  'user.warned',
  'user.suspended',
  'user.unsuspended',
  'user.banned',
  'user.unbanned',
];
const ADDED = [
  'content.moderated',
  'report.closed',
  'copyright.claimed',
  'copyright.countered',
  'copyright.upheld',
  'copyright.rejected',
  'strike.added',
  'strike.lifted',
  'appeal.created',
  'appeal.granted',
  'appeal.denied',
];

/** The webhook events as this migration leaves them: the next migration that widens them starts here. */
export const WEBHOOK_EVENTS_0027 = [...BEFORE, ...ADDED];

export async function up(db: Kysely<unknown>): Promise<void> {
  await constrainWebhookEvents(db, WEBHOOK_EVENTS_0027);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await withdrawWebhookEvents(db, ADDED, BEFORE);
}

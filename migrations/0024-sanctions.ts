import { sql, type Kysely } from 'kysely';
import { constrainWebhookEvents, withdrawWebhookEvents } from './support/webhook-event-checks.js';

/**
 * Sanctions: the five events about an account's sanctions (user.warned, user.suspended,
 * user.unsuspended, user.banned, user.unbanned) join the webhook events (the CHECKs spell the
 * contract's WEBHOOK_EVENT_TYPES: enum-constraints test), and the job that ends suspensions finds
 * the ones that ran out by their end.
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
];
const ADDED = ['user.warned', 'user.suspended', 'user.unsuspended', 'user.banned', 'user.unbanned'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await constrainWebhookEvents(db, [...BEFORE, ...ADDED]);
  await sql`create index sanctions_running_suspensions on sanctions (ends_at)
    where kind = 'suspend' and lifted_at is null and ends_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sanctions_running_suspensions`.execute(db);
  await withdrawWebhookEvents(db, ADDED, BEFORE);
}

import { sql, type Kysely } from 'kysely';

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

const textArray = (values: string[]) => sql.raw(`array[${values.map((value) => `'${value}'`).join(', ')}]::text[]`);

async function constrain(db: Kysely<unknown>, types: string[]): Promise<void> {
  const withTest = [...types, 'webhook.test'];
  await sql`alter table webhooks drop constraint if exists webhooks_events_check`.execute(db);
  await sql`alter table webhooks add constraint webhooks_events_check
    check (events <@ ${textArray(['*', ...withTest])} and cardinality(events) > 0)`.execute(db);
  await sql`alter table webhook_deliveries drop constraint if exists webhook_deliveries_event_type_check`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_event_type_check
    check (event_type = any(${textArray(withTest)}))`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await constrain(db, [...BEFORE, ...ADDED]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from webhook_deliveries where event_type = any(${textArray(ADDED)})`.execute(db);
  await sql`update webhooks set events = array(select unnest(events) except select unnest(${textArray(ADDED)}))`.execute(
    db,
  );
  await sql`delete from webhooks where cardinality(events) = 0`.execute(db);
  await constrain(db, BEFORE);
}

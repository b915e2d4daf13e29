import { sql, type Kysely } from 'kysely';

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
  await sql`create index sanctions_running_suspensions on sanctions (ends_at)
    where kind = 'suspend' and lifted_at is null and ends_at is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sanctions_running_suspensions`.execute(db);
  await sql`delete from webhook_deliveries where event_type = any(${textArray(ADDED)})`.execute(db);
  await sql`update webhooks set events = array(select unnest(events) except select unnest(${textArray(ADDED)}))`.execute(
    db,
  );
  await sql`delete from webhooks where cardinality(events) = 0`.execute(db);
  await constrain(db, BEFORE);
}

import { sql, type Kysely } from 'kysely';

/**
 * The two CHECKs that spell the webhook event types (the contract's WEBHOOK_EVENT_TYPES, held to
 * them by the enum-constraints test), rewritten by each migration that adds events. A migration
 * passes its own literal list, so that it stays what it was when later ones add more.
 */
const textArray = (values: readonly string[]) =>
  sql.raw(`array[${values.map((value) => `'${value}'`).join(', ')}]::text[]`);

/** Allows exactly `types` (and webhook.test, and '*' in a subscription). */
export async function constrainWebhookEvents(db: Kysely<unknown>, types: readonly string[]): Promise<void> {
  const withTest = [...types, 'webhook.test'];
  await sql`alter table webhooks drop constraint if exists webhooks_events_check`.execute(db);
  await sql`alter table webhooks add constraint webhooks_events_check
    check (events <@ ${textArray(['*', ...withTest])} and cardinality(events) > 0)`.execute(db);
  await sql`alter table webhook_deliveries drop constraint if exists webhook_deliveries_event_type_check`.execute(db);
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_event_type_check
    check (event_type = any(${textArray(withTest)}))`.execute(db);
}

/** Undoes an addition: the deliveries of `removed` go, subscriptions lose them (left with none, the webhook goes). */
export async function withdrawWebhookEvents(
  db: Kysely<unknown>,
  removed: readonly string[],
  remaining: readonly string[],
): Promise<void> {
  await sql`delete from webhook_deliveries where event_type = any(${textArray(removed)})`.execute(db);
  await sql`update webhooks set events = array(select unnest(events) except select unnest(${textArray(removed)}))`.execute(
    db,
  );
  await sql`delete from webhooks where cardinality(events) = 0`.execute(db);
  await constrainWebhookEvents(db, remaining);
}

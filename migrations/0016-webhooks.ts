import { sql, type Kysely } from 'kysely';

/**
 * Outgoing webhooks (ADDENDUM "Webhooks"). The `whk_` key is stored as its SHA-256 and found by
 * it; the signing secret is sealed (AES-256-GCM with SECRET_KEY), and so is the previous one during
 * a rotation. A delivery keeps the exact body it signs, so every attempt sends the same message.
 * The CHECKs spell the contract's WEBHOOK_EVENT_TYPES and DELIVERY_STATUSES (enum-constraints test).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const events = sql.raw(
    "array['*', 'track.created', 'track.updated', 'track.deleted', 'track.processed', 'track.liked', 'track.reposted', 'comment.created', " +
      "'user.followed', 'playlist.created', 'playlist.updated', 'playlist.deleted', 'playlist.track_added', 'playlist.track_removed', " +
      "'order.created', 'order.completed', 'order.refunded', 'product.sold', 'webhook.test']::text[]",
  );
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', sql`text[]`, (col) =>
      col.notNull().check(sql`events <@ ${events} and cardinality(events) > 0`),
    )
    .addColumn('description', 'text')
    .addColumn('is_active', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('api_key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('api_key_prefix', 'text', (col) => col.notNull())
    .addColumn('secret_sealed', 'text', (col) => col.notNull())
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('consecutive_failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('disabled_reason', 'text')
    .addColumn('last_delivery_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('webhooks_user').on('webhooks').columns(['user_id', 'created_at']).execute();

  const types = sql.raw(
    "array['track.created', 'track.updated', 'track.deleted', 'track.processed', 'track.liked', 'track.reposted', 'comment.created', " +
      "'user.followed', 'playlist.created', 'playlist.updated', 'playlist.deleted', 'playlist.track_added', 'playlist.track_removed', " +
      "'order.created', 'order.completed', 'order.refunded', 'product.sold', 'webhook.test']::text[]",
  );
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('webhook_id', 'uuid', (col) => col.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('message_id', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull().check(sql`event_type = any(${types})`))
    .addColumn('payload', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('pending').check(sql`status in ('pending', 'succeeded', 'failed')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_webhook')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'created_at'])
    .execute();
  // an event handled twice (the outbox delivers at least once) makes one message per webhook
  await db.schema
    .createIndex('webhook_deliveries_message')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'message_id'])
    .unique()
    .execute();
  await db.schema.createIndex('webhook_deliveries_created').on('webhook_deliveries').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}

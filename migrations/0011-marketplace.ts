import { sql, type Kysely } from 'kysely';

const checkIn = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/**
 * The marketplace (ADDENDUM Part 2 "Marketplace"): products with licenses, images, previews and a
 * deliverable file; orders with their items, payments and idempotency keys; promo codes; license grants
 * (what a buyer may download); reviews; invoice numbers; downloads. Money is integer cents everywhere.
 * The CHECKs spell the contract's enums (tests/contract/enum-constraints.test.ts); migrations are
 * history, so the values are written out here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const now = sql`now()`;
  const uuid = sql`gen_random_uuid()`;

  await db.schema
    .createTable('products')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('seller_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addColumn('currency', 'text', (col) => col.notNull().defaultTo('USD').check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('product_type', 'text', (col) =>
      col.notNull().check(checkIn('product_type', ['track', 'pack', 'service'])),
    )
    .addColumn('category', 'text', (col) => col.check(checkIn('category', ['sample', 'beat', 'preset', 'pack'])))
    .addColumn('bpm', 'integer', (col) => col.check(sql`bpm between 1 and 300`))
    .addColumn('musical_key', 'text')
    .addColumn('license_type', 'text', (col) => col.check(checkIn('license_type', ['basic', 'premium', 'exclusive'])))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('draft')
        .check(checkIn('status', ['draft', 'active', 'archived'])),
    )
    .addColumn('track_id', 'uuid', (col) => col.references('tracks.id').onDelete('set null'))
    // the deliverable of a pack (zip or audio); a track product delivers its track's original
    .addColumn('file_key', 'text')
    .addColumn('file_name', 'text')
    .addColumn('file_size', 'bigint')
    .addColumn('file_content_type', 'text')
    .addColumn('review_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('rating_sum', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sales_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('download_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('products_status_created').on('products').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('products_seller_created').on('products').columns(['seller_id', 'created_at']).execute();
  await db.schema
    .createIndex('products_track')
    .on('products')
    .column('track_id')
    .where(sql.ref('track_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('product_licenses')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('license_type', 'text', (col) =>
      col.notNull().check(checkIn('license_type', ['streaming', 'personal', 'commercial', 'exclusive'])),
    )
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addColumn('terms_text', 'text')
    // false once an exclusive license of the product is sold (every license of it), true again on refund
    .addColumn('is_available', 'boolean', (col) => col.notNull().defaultTo(true))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addUniqueConstraint('product_licenses_once', ['product_id', 'license_type'])
    .execute();

  await db.schema
    .createTable('product_images')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('byte_size', 'integer', (col) => col.notNull())
    .addColumn('sort_order', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('product_images_product')
    .on('product_images')
    .columns(['product_id', 'sort_order'])
    .execute();

  await db.schema
    .createTable('product_previews')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('storage_key', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('byte_size', 'bigint', (col) => col.notNull())
    .addColumn('duration_sec', 'integer', (col) => col.notNull().check(sql`duration_sec between 0 and 60`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('product_previews_product')
    .on('product_previews')
    .columns(['product_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('promo_codes')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('seller_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code', 'text', (col) => col.notNull())
    // lower(code): codes are case-insensitive, unique per seller
    .addColumn('code_key', 'text', (col) => col.notNull())
    .addColumn('percent_off', 'integer', (col) => col.check(sql`percent_off between 1 and 100`))
    .addColumn('amount_off_cents', 'bigint', (col) => col.check(sql`amount_off_cents > 0`))
    .addColumn('currency', 'text', (col) => col.check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('max_redemptions', 'integer', (col) => col.check(sql`max_redemptions > 0`))
    .addColumn('redemption_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addUniqueConstraint('promo_codes_once', ['seller_id', 'code_key'])
    .addCheckConstraint('promo_codes_one_discount', sql`(percent_off is null) <> (amount_off_cents is null)`)
    .execute();
  await db.schema.createIndex('promo_codes_code').on('promo_codes').column('code_key').execute();
  await db.schema
    .createTable('promo_code_products')
    .addColumn('promo_code_id', 'uuid', (col) => col.notNull().references('promo_codes.id').onDelete('cascade'))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('promo_code_products_pk', ['promo_code_id', 'product_id'])
    .execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    // an order is a financial record: it outlives the buyer's account (anonymised)
    .addColumn('buyer_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('pending')
        .check(checkIn('status', ['pending', 'completed', 'failed', 'refunded'])),
    )
    .addColumn('payment_status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('requires_payment')
        .check(checkIn('payment_status', ['requires_payment', 'succeeded', 'failed', 'refunded'])),
    )
    .addColumn('currency', 'text', (col) => col.notNull().check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('subtotal_cents', 'bigint', (col) => col.notNull().check(sql`subtotal_cents >= 0`))
    .addColumn('discount_amount_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`discount_amount_cents >= 0`),
    )
    .addColumn('total_cents', 'bigint', (col) => col.notNull().check(sql`total_cents >= 0`))
    .addColumn('promo_code_id', 'uuid', (col) => col.references('promo_codes.id').onDelete('set null'))
    .addColumn('payment_provider', 'text', (col) =>
      col.notNull().check(checkIn('payment_provider', ['sandbox', 'stripe'])),
    )
    // the provider's checkout (sandbox payment id, Stripe Checkout Session id) and the payment it made
    .addColumn('payment_session_id', 'text', (col) => col.unique())
    .addColumn('payment_provider_payment_id', 'text')
    .addColumn('checkout_url', 'text')
    .addColumn('payment_expires_at', 'timestamptz')
    .addColumn('failure_reason', 'text')
    .addColumn('completed_at', 'timestamptz')
    .addColumn('refund_deadline', 'timestamptz')
    .addColumn('refunded_at', 'timestamptz')
    .addColumn('refund_reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('orders_buyer_created').on('orders').columns(['buyer_id', 'created_at']).execute();
  await db.schema
    .createIndex('orders_pending_expiry')
    .on('orders')
    .column('payment_expires_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    // products with orders are archived, never deleted
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('restrict'))
    .addColumn('seller_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('license_id', 'uuid', (col) => col.references('product_licenses.id').onDelete('set null'))
    // copied at creation: what was bought and for how much
    .addColumn('license_type', 'text', (col) =>
      col.check(checkIn('license_type', ['streaming', 'personal', 'commercial', 'exclusive'])),
    )
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('price_cents', 'bigint', (col) => col.notNull().check(sql`price_cents >= 0`))
    .addColumn('discount_cents', 'bigint', (col) => col.notNull().defaultTo(0).check(sql`discount_cents >= 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex('order_items_order').on('order_items').column('order_id').execute();
  await db.schema.createIndex('order_items_seller').on('order_items').columns(['seller_id', 'created_at']).execute();
  await db.schema.createIndex('order_items_product').on('order_items').column('product_id').execute();

  // An exclusive license is held by one pending order at a time and sold once: the unique key is the lock.
  await db.schema
    .createTable('exclusive_holds')
    .addColumn('product_id', 'uuid', (col) => col.primaryKey().references('products.id').onDelete('cascade'))
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('sold', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('license_grants')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('order_item_id', 'uuid', (col) =>
      col.notNull().unique().references('order_items.id').onDelete('cascade'),
    )
    .addColumn('order_id', 'uuid', (col) => col.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('buyer_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('license_type', 'text', (col) =>
      col.check(checkIn('license_type', ['streaming', 'personal', 'commercial', 'exclusive'])),
    )
    .addColumn('granted_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('license_grants_buyer_product')
    .on('license_grants')
    .columns(['buyer_id', 'product_id'])
    .execute();

  // Idempotency-Key: the same key and body within 24 h give the first reply; another body is 409.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('request_hash', 'text', (col) => col.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'scope', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expiry').on('idempotency_keys').column('expires_at').execute();

  // Provider events already applied: the webhook is idempotent per provider event id.
  await db.schema
    .createTable('payment_events')
    .addColumn('provider', 'text', (col) => col.notNull().check(checkIn('provider', ['sandbox', 'stripe'])))
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('order_id', 'uuid', (col) => col.references('orders.id').onDelete('set null'))
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
    .execute();

  await db.schema
    .createTable('product_reviews')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('author_id', 'uuid', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('rating', 'integer', (col) => col.notNull().check(sql`rating between 1 and 5`))
    .addColumn('comment', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .addUniqueConstraint('product_reviews_once', ['product_id', 'author_id'])
    .execute();
  await db.schema
    .createIndex('product_reviews_product_created')
    .on('product_reviews')
    .columns(['product_id', 'created_at'])
    .execute();

  // INV-<year>-<six digits>: one counter row per year, taken with an update … returning
  await db.schema
    .createTable('invoice_counters')
    .addColumn('year', 'integer', (col) => col.primaryKey())
    .addColumn('last_number', 'integer', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('order_id', 'uuid', (col) => col.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('number', 'text', (col) => col.notNull().unique())
    .addColumn('issued_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable('product_downloads')
    .addColumn('id', 'uuid', (col) => col.primaryKey().defaultTo(uuid))
    .addColumn('product_id', 'uuid', (col) => col.notNull().references('products.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(now))
    .execute();
  await db.schema
    .createIndex('product_downloads_product_created')
    .on('product_downloads')
    .columns(['product_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'product_downloads',
    'invoices',
    'invoice_counters',
    'product_reviews',
    'payment_events',
    'idempotency_keys',
    'license_grants',
    'exclusive_holds',
    'order_items',
    'orders',
    'promo_code_products',
    'promo_codes',
    'product_previews',
    'product_images',
    'product_licenses',
    'products',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

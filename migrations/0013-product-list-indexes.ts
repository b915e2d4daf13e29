import { sql, type Kysely } from 'kysely';

/**
 * GET /marketplace/products at scale: the newest products of a status (and type) come from an
 * index in their order, and their count from the same index alone (price and type are in it);
 * words in the title or description are found through a trigram index, as ILIKE '%word%' asks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index products_list on products (status, created_at desc, id desc) include (product_type, price_cents)`.execute(
    db,
  );
  await sql`create index products_list_type on products (status, product_type, created_at desc, id desc) include (price_cents)`.execute(
    db,
  );
  await sql`create index products_text_trgm on products using gin ((title || ' ' || coalesce(description, '')) gin_trgm_ops)`.execute(
    db,
  );
  await sql`drop index products_status_created`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index products_status_created on products (status, created_at)`.execute(db);
  for (const index of ['products_text_trgm', 'products_list_type', 'products_list'])
    await sql`drop index ${sql.id(index)}`.execute(db);
}

import { sql, type Kysely } from 'kysely';

/**
 * The exact X-Total-Count of GET /marketplace/products without a count over the catalogue
 * (issue 15: the list at 100,000 products within 2× of its time at 1,000).
 *
 * - product_count_deltas: how many products each (status, product_type) gained or lost. Triggers
 *   append a row per statement that changes those numbers, inside its transaction, so a reader's
 *   snapshot sums exactly the products it sees. Appending takes no lock a concurrent writer waits
 *   on (a counter row updated in place would serialise every product change and could deadlock).
 *   A periodic job folds the rows into one per key.
 * - products_price and products_price_type: a price range is counted from an index range.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table product_count_deltas (
    status text not null,
    product_type text not null,
    delta bigint not null
  )`.execute(db);
  await sql`create index product_count_deltas_key on product_count_deltas (status, product_type) include (delta)`.execute(
    db,
  );

  // one function for the three statements: the rows each key gained (new) minus those it lost (old)
  for (const [op, transition, gained, lost] of [
    [
      'insert',
      'referencing new table as new_rows',
      sql`select status, product_type from new_rows`,
      sql`select null::text, null::text where false`,
    ],
    [
      'delete',
      'referencing old table as old_rows',
      sql`select null::text, null::text where false`,
      sql`select status, product_type from old_rows`,
    ],
    [
      'update',
      'referencing old table as old_rows new table as new_rows',
      sql`select status, product_type from new_rows`,
      sql`select status, product_type from old_rows`,
    ],
  ] as const) {
    await sql`create function ${sql.raw(`riff_product_counts_${op}`)}() returns trigger language plpgsql as $$
      begin
        insert into public.product_count_deltas (status, product_type, delta)
        select status, product_type, sum(delta) from (
          select status, product_type, 1 as delta from (${gained}) g(status, product_type)
          union all
          select status, product_type, -1 from (${lost}) l(status, product_type)
        ) changes
        group by status, product_type
        having sum(delta) <> 0;
        return null;
      end $$`.execute(db);
    await sql`create trigger ${sql.raw(`products_count_${op}`)} after ${sql.raw(op)} on products ${sql.raw(transition)}
      for each statement execute function ${sql.raw(`riff_product_counts_${op}`)}()`.execute(db);
  }
  await sql`insert into product_count_deltas (status, product_type, delta)
    select status, product_type, count(*) from products group by status, product_type`.execute(db);

  await sql`create index products_price on products (status, price_cents)`.execute(db);
  await sql`create index products_price_type on products (status, product_type, price_cents)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const op of ['insert', 'delete', 'update']) {
    await sql`drop trigger ${sql.raw(`products_count_${op}`)} on products`.execute(db);
    await sql`drop function ${sql.raw(`riff_product_counts_${op}`)}()`.execute(db);
  }
  await sql`drop table product_count_deltas`.execute(db);
  await sql`drop index products_price`.execute(db);
  await sql`drop index products_price_type`.execute(db);
}

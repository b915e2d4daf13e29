import { sql, type Kysely } from 'kysely';

/**
 * The product count deltas (0017) keyed by moderation status too, so that the catalogue's total
 * leaves out hidden and removed products as its rows do: a moderated product is, for everyone but
 * its seller and staff, as if it did not exist, its count included.
 */
const WITH_MODERATION = ['status', 'product_type', 'moderation_status'];
const WITHOUT = ['status', 'product_type'];

/** The trigger functions of 0017 (their triggers stay), counting per `key`, then every product recounted under it. */
async function countBy(db: Kysely<unknown>, key: readonly string[]): Promise<void> {
  const columns = sql.raw(key.join(', '));
  const nothing = sql.raw(`select ${key.map(() => 'null::text').join(', ')} where false`);
  const ops = [
    ['insert', sql`select ${columns} from new_rows`, nothing],
    ['delete', nothing, sql`select ${columns} from old_rows`],
    ['update', sql`select ${columns} from new_rows`, sql`select ${columns} from old_rows`],
  ] as const;
  for (const [op, gained, lost] of ops) {
    await sql`create or replace function ${sql.raw(`riff_product_counts_${op}`)}() returns trigger language plpgsql as $$
      begin
        insert into public.product_count_deltas (${columns}, delta)
        select ${columns}, sum(delta) from (
          select ${columns}, 1 as delta from (${gained}) g(${columns})
          union all
          select ${columns}, -1 from (${lost}) l(${columns})
        ) changes
        group by ${columns}
        having sum(delta) <> 0;
        return null;
      end $$`.execute(db);
  }
  await sql`drop index product_count_deltas_key`.execute(db);
  await sql`create index product_count_deltas_key on product_count_deltas (${columns}) include (delta)`.execute(db);
  // in this migration's transaction: no product change runs beside the recount
  await sql`delete from product_count_deltas`.execute(db);
  await sql`insert into product_count_deltas (${columns}, delta)
    select ${columns}, count(*) from products group by ${columns}`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table product_count_deltas add column moderation_status text not null default 'visible'`.execute(db);
  await countBy(db, WITH_MODERATION);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table product_count_deltas drop column moderation_status`.execute(db);
  await countBy(db, WITHOUT);
}

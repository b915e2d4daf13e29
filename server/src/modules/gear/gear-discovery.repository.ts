import type { GearCategory } from '@riff/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { searchDoc, withTypoFallback, type TextQuery } from '../../platform/search/text-search.js';
import { actingUserSql, notBlockedSql } from '../users/people-sql.js';
import type { GearRow } from './gear.tables.js';

/** The document of an item, as migration 0039 indexes it (public items only). */
const GEAR_DOC = searchDoc(sql`g.brand`, sql`g.model`, sql`g.nickname`);

export interface PopularModel {
  model_key: string;
  brand: string;
  model: string;
  category: GearCategory;
  owners: number;
}

/**
 * Discovery: search over public items, and the per-model owner counts kept in the same
 * transactions as the items (gear_models, gear_model_owners), so the most owned models are an index
 * read whatever the number of items.
 */
export class GearDiscoveryRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Public items of accounts that may act (not deactivated, banned or suspended), never of one blocked either way with the caller. */
  private discoverable(actor: Actor, alias: string): RawBuilder<SqlBool> {
    const owner = `${alias}.user_id`;
    const conditions = [sql<SqlBool>`${sql.ref(`${alias}.is_public`)}`, actingUserSql(owner)];
    if (actor.kind === 'user') conditions.push(notBlockedSql(actor.id, owner));
    return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
  }

  async search(
    actor: Actor,
    q: string,
    category: GearCategory | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ rows: GearRow[]; total: number }> {
    return withTypoFallback(q, (text) => this.searchPage(actor, text, category, page));
  }

  private async searchPage(
    actor: Actor,
    text: TextQuery,
    category: GearCategory | undefined,
    page: { limit: number; offset: number },
  ): Promise<{ rows: GearRow[]; total: number }> {
    const conditions = [this.discoverable(actor, 'g'), text.matches(GEAR_DOC)];
    if (category) conditions.push(sql<SqlBool>`g.category = ${category}`);
    const where = sql.join(conditions, sql` and `);
    // offset 0 keeps the inner query apart, so each row's normal forms are computed once for the ranking
    const rows = await sql<GearRow & { total_count: number }>`
      select m.id, m.user_id, m.category, m.brand, m.model, m.nickname, m.year, m.notes, m.acquired_at, m.is_public,
        m.model_key, m.created_at, m.updated_at, count(*) over () as total_count
      from (select g.*, riff_norm(g.brand) as n_brand, riff_norm(g.model) as n_model, ${GEAR_DOC} as n_doc
        from gear_items g where ${where} offset 0) m
      order by ${text.tier([sql`m.n_model`, sql`m.n_brand`], sql`m.n_doc`)}, ${text.closeness(sql`m.n_doc`)} desc,
        m.created_at desc, m.id
      limit ${page.limit} offset ${page.offset}`.execute(this.db);
    const total = rows.rows[0] ? Number(rows.rows[0].total_count) : 0;
    if (rows.rows.length === 0 && page.offset > 0) {
      const counted = await sql<{ n: number }>`select count(*) as n from gear_items g where ${where}`.execute(this.db);
      return { rows: [], total: Number(counted.rows[0]?.n ?? 0) };
    }
    return { rows: rows.rows.map(({ total_count: _, ...row }) => row as GearRow), total };
  }

  // the per-model counts

  /**
   * One more public item of this model for this owner: a new owner of the model counts once (the
   * model's row is made with the brand, model and category of its first owner's item).
   */
  async addPublicItem(item: Pick<GearRow, 'model_key' | 'user_id' | 'brand' | 'model' | 'category'>): Promise<void> {
    await this.db
      .insertInto('gear_models')
      .values({ model_key: item.model_key, brand: item.brand, model: item.model, category: item.category, owners: 0 })
      .onConflict((oc) => oc.column('model_key').doNothing())
      .execute();
    const owner = await this.db
      .insertInto('gear_model_owners')
      .values({ model_key: item.model_key, user_id: item.user_id, items: 1 })
      .onConflict((oc) =>
        oc.columns(['model_key', 'user_id']).doUpdateSet((eb) => ({ items: eb('gear_model_owners.items', '+', 1) })),
      )
      .returning(['items', 'counted'])
      .executeTakeFirstOrThrow();
    if (owner.items === 1 && owner.counted) await this.bump(item.model_key, 1);
  }

  /** One public item of this model fewer for this owner: the last one takes them off the model. */
  async removePublicItem(item: Pick<GearRow, 'model_key' | 'user_id'>): Promise<void> {
    const owner = await this.db
      .updateTable('gear_model_owners')
      .set((eb) => ({ items: eb('items', '-', 1) }))
      .where('model_key', '=', item.model_key)
      .where('user_id', '=', item.user_id)
      .where('items', '>', 1)
      .returning('items')
      .executeTakeFirst();
    if (owner) return;
    const removed = await this.db
      .deleteFrom('gear_model_owners')
      .where('model_key', '=', item.model_key)
      .where('user_id', '=', item.user_id)
      .returning('counted')
      .executeTakeFirst();
    if (removed?.counted) await this.bump(item.model_key, -1);
  }

  private async bump(modelKey: string, by: number): Promise<void> {
    await this.db
      .updateTable('gear_models')
      .set((eb) => ({ owners: eb('owners', '+', by) }))
      .where('model_key', '=', modelKey)
      .execute();
  }

  /** An account deactivated or banned leaves the counts (counted = false); unbanned, it comes back. */
  async setCounted(userId: string, counted: boolean): Promise<void> {
    const changed = await this.db
      .updateTable('gear_model_owners')
      .set({ counted })
      .where('user_id', '=', userId)
      .where('counted', '=', !counted)
      .returning('model_key')
      .execute();
    for (const { model_key } of changed) await this.bump(model_key, counted ? 1 : -1);
  }

  /** The models with the most counted owners, most first: an index range of gear_models. */
  topModels(category: GearCategory | undefined, limit: number): Promise<PopularModel[]> {
    let query = this.db
      .selectFrom('gear_models')
      .select(['model_key', 'brand', 'model', 'category', 'owners'])
      .where('owners', '>', 0);
    if (category) query = query.where('category', '=', category);
    return query.orderBy('owners', 'desc').orderBy('model_key').limit(limit).execute();
  }

  /** Of these users (the caller's blocked ones: a few), the models each counts for. */
  async modelsCountedFor(userIds: readonly string[]): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('gear_model_owners')
      .select('model_key')
      .where('user_id', 'in', [...userIds])
      .where('counted', '=', true)
      .execute();
    return rows.map((row) => row.model_key);
  }

  /** The model key of a brand and model as a query names them. */
  async modelKey(brand: string, model: string): Promise<string> {
    const row = await sql<{ key: string }>`select gear_model_key(${brand}, ${model}) as key`.execute(this.db);
    return row.rows[0]!.key;
  }

  /**
   * A page of the owners of a model others may see (counted, acting accounts, not blocked either way),
   * most recent first: the index gear_model_owners_since walked in its order and stopped at the page.
   */
  async owners(actor: Actor, modelKey: string, page: { limit: number; offset: number }): Promise<string[]> {
    const conditions = [sql<SqlBool>`o.model_key = ${modelKey}`, sql<SqlBool>`o.counted`, actingUserSql('o.user_id')];
    if (actor.kind === 'user') conditions.push(notBlockedSql(actor.id, 'o.user_id'));
    const rows = await sql<{ user_id: string }>`select o.user_id from gear_model_owners o
        where ${sql.join(conditions, sql` and `)}
        order by o.since desc, o.user_id limit ${page.limit} offset ${page.offset}`.execute(this.db);
    return rows.rows.map((row) => row.user_id);
  }

  /** A model's counted owners (what popular shows), without counting its rows. */
  async ownerCount(modelKey: string): Promise<number> {
    const row = await this.db
      .selectFrom('gear_models')
      .select('owners')
      .where('model_key', '=', modelKey)
      .executeTakeFirst();
    return row?.owners ?? 0;
  }

  /** Of these users (the caller's blocked ones: a few), how many are counted owners of the model. */
  async countedOwnersAmong(modelKey: string, userIds: readonly string[]): Promise<number> {
    if (userIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('gear_model_owners')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('model_key', '=', modelKey)
      .where('user_id', 'in', [...userIds])
      .where('counted', '=', true)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

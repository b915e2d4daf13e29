import type { Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

/** A promo code with the products it is limited to (none: all of its seller's). */
export type PromoCodeRow = Selectable<Database['promo_codes']> & { product_ids: string[] };

/** A code as its seller creates it: every column but those the database fills. */
export type NewPromoCode = Omit<Selectable<Database['promo_codes']>, 'id' | 'redemption_count' | 'created_at'>;

/** The key codes are compared by: case does not matter. */
export const promoCodeKey = (code: string) => code.trim().toLowerCase();

/** Every query of promo codes. */
export class PromoCodesRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** Which of the ids are products of the seller (any status). */
  async productsOfSeller(sellerId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('products')
      .select('id')
      .where('seller_id', '=', sellerId)
      .where('id', 'in', [...ids])
      .execute();
    return new Set(rows.map((row) => row.id));
  }

  /** Inserts the code and its products; a code the seller already has (any case) is a unique violation. */
  async insert(code: NewPromoCode, productIds: readonly string[]): Promise<PromoCodeRow> {
    const row = await this.db.insertInto('promo_codes').values(code).returningAll().executeTakeFirstOrThrow();
    if (productIds.length > 0) {
      await this.db
        .insertInto('promo_code_products')
        .values(productIds.map((product_id) => ({ promo_code_id: row.id, product_id })))
        .execute();
    }
    return { ...row, product_ids: [...productIds].sort() };
  }

  private async withProducts(rows: Selectable<Database['promo_codes']>[]): Promise<PromoCodeRow[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('promo_code_products')
      .select(['promo_code_id', 'product_id'])
      .where(
        'promo_code_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('product_id')
      .execute();
    const byCode = new Map<string, string[]>();
    for (const link of links)
      byCode.set(link.promo_code_id, [...(byCode.get(link.promo_code_id) ?? []), link.product_id]);
    return rows.map((row) => ({ ...row, product_ids: byCode.get(row.id) ?? [] }));
  }

  async find(id: string): Promise<PromoCodeRow | undefined> {
    const row = await this.db.selectFrom('promo_codes').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withProducts([row]))[0] : undefined;
  }

  async listOfSeller(sellerId: string): Promise<PromoCodeRow[]> {
    const rows = await this.db
      .selectFrom('promo_codes')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return this.withProducts(rows);
  }

  async remove(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('promo_codes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

import type { ProductLicenseType, ProductStatus, ProductType } from '@riff/contract';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import { moderationReachSql, type ModeratedReach } from '../../platform/access/moderation.js';
import type {
  ProductImagesTable,
  ProductLicensesTable,
  ProductPreviewsTable,
  ProductsTable,
} from './marketplace.tables.js';
import { normalForm, searchDoc, withTypoFallback, type TextQuery } from '../../platform/search/text-search.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { notBlockedSql } from '../users/people-sql.js';

export type ProductRow = Selectable<ProductsTable>;
export type ProductLicenseRow = Selectable<ProductLicensesTable>;
export type ProductImageRow = Selectable<ProductImagesTable>;
export type ProductPreviewRow = Selectable<ProductPreviewsTable>;

/** A product with what its reply shows. */
export interface ProductBundle {
  product: ProductRow;
  licenses: ProductLicenseRow[];
  images: ProductImageRow[];
  previews: ProductPreviewRow[];
}

export interface ProductFilter {
  sellerId?: string | undefined;
  /** undefined: any status (the seller's own list). */
  statuses?: readonly ProductStatus[] | undefined;
  type?: ProductType | undefined;
  /** The search engine's query over title and description: matches, best first (then newest); other users' blocks either way leave sellers out. */
  text?: string | undefined;
  viewerId?: string | undefined;
  /** Whose hidden or removed products the viewer sees beside everyone's visible ones (the products policy's rule). */
  reach: ModeratedReach;
  minCents?: number | undefined;
  maxCents?: number | undefined;
  limit: number;
  offset: number;
}

const PRODUCT_DOC = searchDoc(sql`title`, sql`description`);

/** All SQL of the products part: products, their licenses, images and previews. */
export class ProductsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  find(id: string) {
    return this.db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The row, locked until the unit of work ends (writes on one product go one at a time). */
  findForUpdate(id: string) {
    return this.db.selectFrom('products').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  }

  async countBySeller(sellerId: string): Promise<number> {
    const row = await this.db
      .selectFrom('products')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('seller_id', '=', sellerId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  insert(row: Insertable<ProductsTable>) {
    return this.db.insertInto('products').values(row).returningAll().executeTakeFirstOrThrow();
  }

  update(id: string, changes: Updateable<ProductsTable>) {
    return this.db
      .updateTable('products')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('products').where('id', '=', id).execute();
  }

  async hasOrders(id: string): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('order_items')
        .select('id')
        .where('product_id', '=', id)
        .limit(1)
        .executeTakeFirst()) !== undefined
    );
  }

  /** Whether an exclusive license of it has been sold (the orders part sets the hold's sold flag). */
  async exclusiveSold(id: string): Promise<boolean> {
    return (
      (await this.db
        .selectFrom('exclusive_holds')
        .select('product_id')
        .where('product_id', '=', id)
        .where('sold', '=', true)
        .executeTakeFirst()) !== undefined
    );
  }

  private filtered(filter: ProductFilter, text?: TextQuery) {
    let query = this.db.selectFrom('products');
    if (filter.sellerId) query = query.where('seller_id', '=', filter.sellerId);
    query = query.where(moderationReachSql(filter.reach, 'products', 'seller_id'));
    if (filter.statuses) query = query.where('status', 'in', filter.statuses);
    if (filter.type) query = query.where('product_type', '=', filter.type);
    if (filter.minCents !== undefined) query = query.where('price_cents', '>=', filter.minCents);
    if (filter.maxCents !== undefined) query = query.where('price_cents', '<=', filter.maxCents);
    if (text) {
      query = query.where(text.matches(PRODUCT_DOC));
      if (filter.viewerId) query = query.where(notBlockedSql(filter.viewerId, 'seller_id'));
    }
    return query;
  }

  /**
   * A page and the total. Without a text query, in two statements side by side: a count beside the
   * page (count(*) over ()) would read every matching row in full; apart, the page walks an index in
   * its order (products_list). A list of statuses and a type alone is counted from the triggers'
   * deltas (migrations 0017 and 0029, per moderation status too) rather than from the catalogue,
   * plus the viewer's own moderated products; a price range from an index range. With
   * one, every match is ranked anyway, so page and total come from one statement.
   */
  list(filter: ProductFilter) {
    return filter.text ? withTypoFallback(filter.text, (text) => this.search(filter, text)) : this.listWith(filter);
  }

  private async listWith(filter: ProductFilter) {
    const [rows, total] = await Promise.all([
      this.filtered(filter)
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      this.count(filter, undefined),
    ]);
    return { rows, total };
  }

  private async search(filter: ProductFilter, text: TextQuery) {
    // offset 0 keeps the inner query apart, so each row's normal forms are computed once, not once per use in the ranking
    const matches = this.filtered(filter, text)
      .selectAll()
      .select([normalForm(sql`title`).as('n_title'), PRODUCT_DOC.as('n_doc')])
      .offset(0)
      .as('m');
    const rows = await this.db
      .selectFrom(matches)
      .selectAll('m')
      .select(totalCount())
      .orderBy(text.tier([sql`m.n_title`], sql`m.n_doc`))
      .orderBy(text.closeness(sql`m.n_doc`), 'desc')
      .orderBy('m.created_at', 'desc')
      .orderBy('m.id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute();
    const counted = await pageWithTotal(rows, () => this.count(filter, text));
    return {
      rows: counted.rows.map(({ n_title: _title, n_doc: _doc, ...row }) => row as ProductRow),
      total: counted.total,
    };
  }

  private async count(filter: ProductFilter, text: TextQuery | undefined): Promise<number> {
    const byKey =
      filter.statuses && !text && !filter.sellerId && filter.minCents === undefined && filter.maxCents === undefined;
    if (!byKey) {
      const counted = await this.filtered(filter, text)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      return Number(counted.count);
    }
    let deltas = this.db
      .selectFrom('product_count_deltas')
      .select(sql<string>`coalesce(sum(delta), 0)`.as('count'))
      .where('status', 'in', filter.statuses!);
    if (filter.type) deltas = deltas.where('product_type', '=', filter.type);
    const { reach } = filter;
    if (reach.everyone) return Number((await deltas.executeTakeFirstOrThrow()).count);
    // everyone's visible products, and the viewer's own moderated ones (a seller has few: their index finds them)
    const [visible, own] = await Promise.all([
      deltas.where('moderation_status', '=', 'visible').executeTakeFirstOrThrow(),
      reach.ownerId === null
        ? { count: 0 }
        : this.filtered({ ...filter, sellerId: reach.ownerId })
            .where('moderation_status', '<>', 'visible')
            .select((eb) => eb.fn.countAll<number>().as('count'))
            .executeTakeFirstOrThrow(),
    ]);
    return Number(visible.count) + Number(own.count);
  }

  /** Folds the count deltas into one row per key (a periodic job); a reader's sum is the same before and after. */
  async foldCountDeltas(): Promise<void> {
    await sql`with folded as (delete from product_count_deltas returning status, product_type, moderation_status, delta)
      insert into product_count_deltas (status, product_type, moderation_status, delta)
      select status, product_type, moderation_status, sum(delta) from folded
      group by status, product_type, moderation_status having sum(delta) <> 0`.execute(this.db);
  }

  listBySeller(sellerId: string) {
    return this.db
      .selectFrom('products')
      .selectAll()
      .where('seller_id', '=', sellerId)
      .orderBy('created_at', 'asc')
      .execute();
  }

  /** The licenses, images and previews of the products, each product's in its order. */
  async bundles(products: ProductRow[]): Promise<ProductBundle[]> {
    if (products.length === 0) return [];
    const ids = products.map((product) => product.id);
    const [licenses, images, previews] = await Promise.all([
      this.db
        .selectFrom('product_licenses')
        .selectAll()
        .where('product_id', 'in', ids)
        .orderBy('price_cents')
        .orderBy('license_type')
        .execute(),
      this.db
        .selectFrom('product_images')
        .selectAll()
        .where('product_id', 'in', ids)
        .orderBy('sort_order')
        .orderBy('created_at')
        .execute(),
      this.db
        .selectFrom('product_previews')
        .selectAll()
        .where('product_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    const of = <T extends { product_id: string }>(rows: T[], id: string) => rows.filter((row) => row.product_id === id);
    return products.map((product) => ({
      product,
      licenses: of(licenses, product.id),
      images: of(images, product.id),
      previews: of(previews, product.id),
    }));
  }

  // licenses

  licenses(productId: string) {
    return this.db.selectFrom('product_licenses').selectAll().where('product_id', '=', productId).execute();
  }

  findLicense(productId: string, licenseId: string) {
    return this.db
      .selectFrom('product_licenses')
      .selectAll()
      .where('product_id', '=', productId)
      .where('id', '=', licenseId)
      .executeTakeFirst();
  }

  insertLicense(row: Insertable<ProductLicensesTable>) {
    return this.db.insertInto('product_licenses').values(row).returningAll().executeTakeFirstOrThrow();
  }

  updateLicense(id: string, changes: Updateable<ProductLicensesTable>) {
    return this.db
      .updateTable('product_licenses')
      .set({ ...changes, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async deleteLicenses(productId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('product_licenses').where('product_id', '=', productId).where('id', 'in', ids).execute();
  }

  licenseOfType(productId: string, type: ProductLicenseType) {
    return this.db
      .selectFrom('product_licenses')
      .selectAll()
      .where('product_id', '=', productId)
      .where('license_type', '=', type)
      .executeTakeFirst();
  }

  // images and previews

  findImage(productId: string, imageId: string) {
    return this.db
      .selectFrom('product_images')
      .selectAll()
      .where('product_id', '=', productId)
      .where('id', '=', imageId)
      .executeTakeFirst();
  }

  async imageStats(productId: string): Promise<{ count: number; nextOrder: number }> {
    const row = await this.db
      .selectFrom('product_images')
      .select((eb) => [eb.fn.countAll<number>().as('count'), sql<number>`coalesce(max(sort_order), -1) + 1`.as('next')])
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow();
    return { count: Number(row.count), nextOrder: Number(row.next) };
  }

  insertImage(row: Insertable<ProductImagesTable>) {
    return this.db.insertInto('product_images').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async deleteImage(id: string): Promise<void> {
    await this.db.deleteFrom('product_images').where('id', '=', id).execute();
  }

  findPreview(productId: string, previewId: string) {
    return this.db
      .selectFrom('product_previews')
      .selectAll()
      .where('product_id', '=', productId)
      .where('id', '=', previewId)
      .executeTakeFirst();
  }

  async previewCount(productId: string): Promise<number> {
    const row = await this.db
      .selectFrom('product_previews')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  insertPreview(row: Insertable<ProductPreviewsTable>) {
    return this.db.insertInto('product_previews').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async deletePreview(id: string): Promise<void> {
    await this.db.deleteFrom('product_previews').where('id', '=', id).execute();
  }

  /** Images and previews of a product go (erasure of a sold product keeps the record, not its showcase). */
  async deleteShowcase(productId: string): Promise<void> {
    await this.db.deleteFrom('product_images').where('product_id', '=', productId).execute();
    await this.db.deleteFrom('product_previews').where('product_id', '=', productId).execute();
  }
}

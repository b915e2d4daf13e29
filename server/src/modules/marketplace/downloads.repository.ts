import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';

/** What downloads read and count: products, the buyer's license grants, product_downloads. */
export class DownloadsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  findProduct(id: string) {
    return this.db
      .selectFrom('products')
      .select([
        'id',
        'title',
        'product_type',
        'track_id',
        'file_key',
        'file_name',
        'file_size',
        'file_content_type',
        'seller_id',
        'moderation_status',
      ])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A license from a completed order, not revoked. */
  async hasLicense(userId: string, productId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('license_grants as g')
      .innerJoin('orders as o', 'o.id', 'g.order_id')
      .select('g.id')
      .where('g.buyer_id', '=', userId)
      .where('g.product_id', '=', productId)
      .where('g.revoked_at', 'is', null)
      .where('o.status', '=', 'completed')
      .executeTakeFirst();
    return row !== undefined;
  }

  async count(productId: string, userId: string): Promise<void> {
    await this.db.insertInto('product_downloads').values({ product_id: productId, user_id: userId }).execute();
    await this.db
      .updateTable('products')
      .set({ download_count: sql`download_count + 1` })
      .where('id', '=', productId)
      .execute();
  }
}

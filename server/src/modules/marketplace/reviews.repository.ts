import { sql, type Selectable } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import type { DbScope } from '../../platform/db/transactions.js';

export type ReviewRow = Selectable<Database['product_reviews']>;

/** Product reviews and the product counters they keep (review_count, rating_sum). */
export class ReviewsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  /** The product, locked: a product's reviews and counters change one at a time. */
  lockProduct(id: string) {
    return this.db
      .selectFrom('products')
      .select(['id', 'seller_id', 'status', 'moderation_status'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
  }

  findProduct(id: string) {
    return this.db
      .selectFrom('products')
      .select(['id', 'seller_id', 'status', 'moderation_status'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Whether the user bought the product in an order that completed. */
  async hasBought(userId: string, productId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select('i.id')
      .where('o.buyer_id', '=', userId)
      .where('i.product_id', '=', productId)
      .where('o.status', '=', 'completed')
      .executeTakeFirst();
    return row !== undefined;
  }

  findByAuthor(productId: string, authorId: string) {
    return this.db
      .selectFrom('product_reviews')
      .selectAll()
      .where('product_id', '=', productId)
      .where('author_id', '=', authorId)
      .executeTakeFirst();
  }

  find(productId: string, id: string) {
    return this.db
      .selectFrom('product_reviews')
      .selectAll()
      .where('product_id', '=', productId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  insert(productId: string, authorId: string, rating: number, comment: string | null) {
    return this.db
      .insertInto('product_reviews')
      .values({ product_id: productId, author_id: authorId, rating, comment })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  update(id: string, rating: number, comment: string | null) {
    return this.db
      .updateTable('product_reviews')
      .set({ rating, comment, updated_at: sql`now()` })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async remove(id: string) {
    await this.db.deleteFrom('product_reviews').where('id', '=', id).execute();
  }

  async adjust(productId: string, countDelta: number, ratingDelta: number) {
    await this.db
      .updateTable('products')
      .set({ review_count: sql`review_count + ${countDelta}`, rating_sum: sql`rating_sum + ${ratingDelta}` })
      .where('id', '=', productId)
      .execute();
  }

  async list(productId: string, limit: number, offset: number) {
    const rows = await this.db
      .selectFrom('product_reviews')
      .selectAll()
      .where('product_id', '=', productId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    const total = await this.db
      .selectFrom('product_reviews')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('product_id', '=', productId)
      .executeTakeFirstOrThrow();
    return { rows, total: Number(total.count) };
  }
}

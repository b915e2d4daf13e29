import type { CreateReviewRequest, Review } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { isOwnerOrAdmin } from '../../platform/access/ownership.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import { canSeeProduct } from './products.policy.js';
import type { ReviewRow, ReviewsRepository } from './reviews.repository.js';

const toReview = (row: ReviewRow): Review => ({
  id: row.id,
  product_id: row.product_id,
  author_id: row.author_id,
  rating: row.rating,
  comment: row.comment,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/**
 * Reviews by buyers (one per buyer: a second replaces the first); the product's counters follow in
 * the same transaction. A product not on sale (a draft or archived) is seen with its reviews by its
 * seller and admins only, as the catalogue shows it: others get 404, but its buyers may still write,
 * change or take back their own review.
 */
export class ReviewsService {
  constructor(private readonly deps: { scope: DbScope; reviews: ReviewsRepository }) {}

  async upsert(
    actor: UserActor,
    productId: string,
    body: CreateReviewRequest,
  ): Promise<{ created: boolean; review: Review }> {
    const { scope, reviews } = this.deps;
    return scope.transaction(async () => {
      const product = await reviews.lockProduct(productId);
      if (!product) throw notFound('Product');
      // a buyer keeps the right to review what they bought once it is off sale (an exclusive license
      // archives its product when sold); anyone else who may not see the product gets 404
      const bought = await reviews.hasBought(actor.id, productId);
      if (!bought && !canSeeProduct(actor, product)) throw notFound('Product');
      if (!bought) throw new AppError('NO_LICENSE', 'Only a buyer with a completed order may review this product');
      const comment = body.comment ? body.comment : null;
      const existing = await reviews.findByAuthor(productId, actor.id);
      if (existing) {
        const review = await reviews.update(existing.id, body.rating, comment);
        await reviews.adjust(productId, 0, body.rating - existing.rating);
        return { created: false, review: toReview(review) };
      }
      const review = await reviews.insert(productId, actor.id, body.rating, comment);
      await reviews.adjust(productId, 1, body.rating);
      return { created: true, review: toReview(review) };
    });
  }

  async list(
    actor: Actor,
    productId: string,
    page: number,
    limit: number,
  ): Promise<{ reviews: Review[]; total: number }> {
    const { reviews } = this.deps;
    const product = await reviews.findProduct(productId);
    if (!product || !canSeeProduct(actor, product)) throw notFound('Product');
    const { rows, total } = await reviews.list(productId, limit, (page - 1) * limit);
    return { reviews: rows.map(toReview), total };
  }

  async remove(actor: UserActor, productId: string, reviewId: string): Promise<void> {
    const { scope, reviews } = this.deps;
    await scope.transaction(async () => {
      const product = await reviews.lockProduct(productId);
      if (!product) throw notFound('Product');
      const review = await reviews.find(productId, reviewId);
      // its author may take a review back after the product went off sale
      const ownReview = review?.author_id === actor.id;
      if (!ownReview && !canSeeProduct(actor, product)) throw notFound('Product');
      if (!review) throw notFound('Review');
      if (!isOwnerOrAdmin(actor, review.author_id))
        throw forbidden('Only its author or an admin may delete this review');
      await reviews.remove(review.id);
      await reviews.adjust(productId, -1, -review.rating);
    });
  }
}

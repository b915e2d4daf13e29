import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, errorOf, payInSandbox, productRow } from './order-helpers.js';

const suite = useTestServer();

describe('product reviews', () => {
  it('only a buyer with a completed order reviews, once (a second replaces the first); the counters follow', async () => {
    const [seller, buyer, other, stranger] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller, { priceCents: 800 });
    expect(
      errorOf(await stranger.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 5 } })),
    ).toEqual([403, 'NO_LICENSE']);
    const pending = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    // a pending order is not a purchase
    expect(
      errorOf(await buyer.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 5 } })),
    ).toEqual([403, 'NO_LICENSE']);
    await payInSandbox(suite.server, buyer.api, pending);
    const first = expectStatus(
      await buyer.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 2, comment: '  meh  ' } }),
      201,
    ).body;
    expect(first).toMatchObject({ rating: 2, comment: 'meh', author_id: buyer.id, product_id: product.id });
    const second = expectStatus(
      await buyer.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 5 } }),
      200,
    ).body;
    expect(second).toMatchObject({ id: first.id, rating: 5, comment: null });
    const otherOrder = expectStatus(
      await other.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    await payInSandbox(suite.server, other.api, otherOrder);
    const third = expectStatus(
      await other.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 4 } }),
      201,
    ).body;
    expect(await productRow(suite.server, product.id)).toMatchObject({ review_count: 2, rating_sum: 9 });

    const listed = await suite.api.marketplace.listReviews({ params: { id: product.id }, query: {} });
    expect(expectStatus(listed, 200).body.map((review) => review.id)).toEqual([third.id, first.id]);
    expect(listed.headers.get('x-total-count')).toBe('2');

    expect(
      errorOf(await stranger.api.marketplace.deleteReview({ params: { id: product.id, reviewId: first.id } })),
    ).toEqual([403, 'FORBIDDEN']);
    expect(
      errorOf(await buyer.api.marketplace.deleteReview({ params: { id: product.id, reviewId: randomUUID() } })),
    ).toEqual([404, 'NOT_FOUND']);
    expectStatus(await buyer.api.marketplace.deleteReview({ params: { id: product.id, reviewId: first.id } }), 200);
    expect(await productRow(suite.server, product.id)).toMatchObject({ review_count: 1, rating_sum: 4 });
    expect(errorOf(await suite.api.marketplace.listReviews({ params: { id: randomUUID() }, query: {} }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(
      errorOf(await buyer.api.marketplace.createReview({ params: { id: product.id }, body: { rating: 6 } as never })),
    ).toEqual([400, 'VALIDATION_FAILED']);
  });
});

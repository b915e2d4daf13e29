import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { optionalAuth, publicRoute, userRoute } from '../../common/route-meta.js';
import { binaryField } from '../tracks/tracks.schemas.js';
import {
  CreateOrderRequestSchema,
  CreateReviewRequestSchema,
  DownloadFileQuerySchema,
  DownloadLinkSchema,
  IdempotencyHeadersSchema,
  OrderListSchema,
  OrderSchema,
  PaymentWebhookReplySchema,
  PaymentWebhookRequestSchema,
  ProductIdParamsSchema,
  RefundOrderRequestSchema,
  ReviewListQuerySchema,
  ReviewListSchema,
  ReviewParamsSchema,
  ReviewSchema,
  SandboxCheckoutParamsSchema,
  SandboxCheckoutQuerySchema,
  SellerStatsQuerySchema,
  SellerStatsReplySchema,
} from './orders.schemas.js';

import { InvoiceReplySchema } from './invoices.schemas.js';

const c = initContract();

/** Orders, payments, promo codes, refunds, invoices, downloads, reviews, seller stats. */
export const ordersContract = {
  createOrder: {
    method: 'POST',
    path: '/marketplace/orders',
    summary: 'Order products',
    description:
      'Not enveloped. Prices are copied into the order. Refused: one’s own product (400), a product not active (400), ' +
      'several currencies (400), an unknown, expired or used-up promo code (400 INVALID_PROMO_CODE), an exclusive license ' +
      'already sold or held by another pending order (409 CONFLICT). The order starts pending (payment_status ' +
      'requires_payment) with `payment.checkout_url`; it expires unpaid after 30 minutes. A total of 0 completes at once. ' +
      'With Idempotency-Key, the same key and body within 24 h answer the first reply; another body is 409 CONFLICT. ' +
      'Money in integer cents: a promo code’s discount is taken once off its eligible items’ total (a percentage rounded ' +
      'half up to the cent, an amount capped at that total) and split over them in proportion to their prices by largest ' +
      'remainder, so each item’s discount_cents is at most its price and total_cents = subtotal_cents − discount_amount_cents.',
    metadata: userRoute,
    headers: IdempotencyHeadersSchema,
    body: CreateOrderRequestSchema,
    responses: { 201: OrderSchema, ...errors(400, 401, 404, 409, 413, 415) },
  },
  listOrders: {
    method: 'GET',
    path: '/marketplace/orders',
    summary: 'Your orders',
    description: 'Not enveloped: a plain array of the caller’s orders, newest first.',
    metadata: userRoute,
    responses: { 200: OrderListSchema, ...errors(401) },
  },
  getOrder: {
    method: 'GET',
    path: '/marketplace/orders/:id',
    summary: 'An order',
    description:
      'Not enveloped. The buyer only; another user gets 403, a seller of its items too: a seller sees their own lines ' +
      'through the invoice, the data export (marketplace_sales) and the seller stats, never the buyer’s checkout.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: OrderSchema, ...errors(400, 401, 403, 404) },
  },
  refundOrder: {
    method: 'POST',
    path: '/marketplace/orders/:id/refund',
    summary: 'Refund a completed order',
    description:
      'Not enveloped. The buyer within refund_deadline (after it: 400 REFUND_WINDOW_CLOSED), the seller of every item at ' +
      'any time. Refunded through the provider in full: status and payment_status refunded, licenses revoked (downloads ' +
      'stop), an exclusive product back on sale, the promo code’s redemption given back. An order that is not completed: ' +
      '400 INVALID_TRANSITION.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: RefundOrderRequestSchema,
    responses: { 200: OrderSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  invoice: {
    method: 'GET',
    path: '/marketplace/orders/:id/invoice',
    summary: 'The invoice of an order',
    description:
      'A PDF (application/pdf) by default; `{invoice}` (not enveloped) with `Accept: application/json`. For the buyer (every ' +
      'line) and the sellers of its items (their own lines, discount and total summed over them; another user: 403, as for ' +
      'the order), of completed and refunded orders (another order has no invoice: 404). Issued the first time it is asked for: the next number of the year (INV-<year>-<six ' +
      'digits>, sequential without gaps) and the parties as they are then; every later read gives the same invoice. ' +
      'Money in integer cents: each line is its price less its share of the discount, and the total is the sum of the lines.',
    // Accept picks the media type: openapi.json lists the PDF beside the JSON
    metadata: { ...userRoute, alsoContentTypes: ['application/pdf'] },
    pathParams: IdParamsSchema,
    responses: { 200: InvoiceReplySchema, ...errors(400, 401, 403, 404) },
  },
  sellerStats: {
    method: 'GET',
    path: '/marketplace/seller/stats',
    summary: 'Your sales',
    description:
      'Not enveloped: `{stats}` over your items of orders completed in the period (UTC days; 30d by default). Revenue is in ' +
      'integer cents after discounts, by currency, refunded orders left out; refunds and refund_rate count the orders of the ' +
      'period refunded since. Anyone signed in: one who sells nothing reads zeros.',
    metadata: userRoute,
    query: SellerStatsQuerySchema,
    responses: { 200: SellerStatsReplySchema, ...errors(400, 401) },
  },
  sandboxCheckout: {
    method: 'GET',
    path: '/marketplace/sandbox/checkout/:paymentId',
    summary: 'Sandbox payment page',
    description:
      'PAYMENT_PROVIDER=sandbox: plays the provider’s hosted checkout. Without `outcome` an HTML page shows the order’s ' +
      'total and two links; `outcome=succeed|fail` records the outcome and the sandbox delivers a signed provider event to ' +
      'POST /marketplace/payments/webhook. An unknown payment (or another provider): 404.',
    metadata: publicRoute,
    pathParams: SandboxCheckoutParamsSchema,
    query: SandboxCheckoutQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'text/html', body: z.string().describe('The page') }),
      ...errors(400, 404),
    },
  },
  paymentWebhook: {
    method: 'POST',
    path: '/marketplace/payments/webhook',
    summary: 'Payment provider events',
    description:
      'For the payment provider: its signature is verified (401 otherwise); each provider event applies once (a replay ' +
      'answers 200 and changes nothing). The only way an order becomes completed or failed. Not enveloped.',
    metadata: publicRoute,
    body: PaymentWebhookRequestSchema,
    responses: { 200: PaymentWebhookReplySchema, ...errors(400, 401, 413, 415) },
  },
  download: {
    method: 'GET',
    path: '/marketplace/download/:product_id',
    summary: 'A download URL for a purchased product',
    description:
      'Not enveloped: `{url, expires_at, filename}`, a signed URL valid 5 minutes that needs no other credential. 403 ' +
      'NO_LICENSE without a completed, unrefunded purchase; 404 for an unknown product or one with nothing to deliver.',
    metadata: userRoute,
    pathParams: ProductIdParamsSchema,
    responses: { 200: DownloadLinkSchema, ...errors(400, 401, 403, 404) },
  },
  downloadFile: {
    method: 'GET',
    path: '/marketplace/download/:product_id/file',
    summary: 'The purchased file (signed URL)',
    description:
      'The URL given by GET /marketplace/download/{product_id}: the deliverable as an attachment. An expired or altered ' +
      'signature: 403; a license revoked meanwhile: 403 NO_LICENSE. Each download is counted.',
    metadata: publicRoute,
    pathParams: ProductIdParamsSchema,
    query: DownloadFileQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: 'application/octet-stream', body: binaryField('The file') }),
      302: c.noBody(),
      ...errors(400, 403, 404),
    },
  },
  createReview: {
    method: 'POST',
    path: '/marketplace/products/:id/reviews',
    summary: 'Review a product you bought',
    description:
      'Not enveloped. By a buyer with a completed order for the product (403 NO_LICENSE otherwise); one per buyer: a second ' +
      'replaces the first (200). The product’s review_count and avg_rating follow.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CreateReviewRequestSchema,
    responses: { 201: ReviewSchema, 200: ReviewSchema, ...errors(400, 401, 403, 404, 413, 415) },
  },
  listReviews: {
    method: 'GET',
    path: '/marketplace/products/:id/reviews',
    summary: 'A product’s reviews',
    description: 'Not enveloped: a plain array, newest first; the total in the X-Total-Count header.',
    metadata: optionalAuth,
    pathParams: IdParamsSchema,
    query: ReviewListQuerySchema,
    responses: { 200: ReviewListSchema, ...errors(400, 401, 404) },
  },
  deleteReview: {
    method: 'DELETE',
    path: '/marketplace/products/:id/reviews/:reviewId',
    summary: 'Delete a review',
    description: 'Its author or an admin; another user gets 403. Not enveloped: `{message}`.',
    metadata: userRoute,
    pathParams: ReviewParamsSchema,
    body: c.noBody(),
    responses: { 200: MessageSchema, ...errors(400, 401, 403, 404) },
  },
} as const;

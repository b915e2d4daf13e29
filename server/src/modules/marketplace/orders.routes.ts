import type { contract, ordersContract } from '@riff/contract';
import { actorOf, signedInActor } from '../../platform/access/request-actor.js';
import type { RoutesOf } from '../../platform/http/contract-routes.js';
import type { DownloadsService } from './downloads.service.js';
import type { IdempotencyKeys } from './order-idempotency.js';
import type { OrderSettlement } from './order-settlement.js';
import type { OrdersService } from './orders.service.js';
import type { PaymentProvider } from './payments/payment-provider.js';
import type { ReviewsService } from './reviews.service.js';
import type { InvoicesService } from './invoices/invoices.service.js';
import { renderInvoicePdf } from './invoices/invoice-pdf.js';
import type { SellerStatsService } from './seller-stats.service.js';
import type { SandboxCheckout } from './payments/sandbox-checkout.js';

type OrderRoutes = RoutesOf<Pick<typeof contract.marketplace, keyof typeof ordersContract>>;

export interface OrderRoutesDeps {
  orders: OrdersService;
  idempotency: IdempotencyKeys;
  settlement: OrderSettlement;
  provider: PaymentProvider;
  sandbox: SandboxCheckout;
  downloads: DownloadsService;
  reviews: ReviewsService;
  invoices: InvoicesService;
  sellerStats: SellerStatsService;
}

/** JSON when the caller names application/json and not the PDF before it; the PDF otherwise. */
function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = accept.indexOf('application/json');
  const pdf = accept.indexOf('application/pdf');
  return json !== -1 && (pdf === -1 || json < pdf);
}

/** The orders part of contract.marketplace: replies are the objects themselves (not enveloped). */
export function orderRoutes({
  orders,
  idempotency,
  settlement,
  provider,
  sandbox,
  downloads,
  reviews,
  invoices,
  sellerStats,
}: OrderRoutesDeps): OrderRoutes {
  return {
    createOrder: async ({ body, headers, req }) => {
      const actor = signedInActor(req);
      const reply = await idempotency.run(
        actor.id,
        'marketplace.orders.create',
        headers['idempotency-key'],
        body,
        async () => ({
          status: 201 as const,
          body: await orders.create(actor, body),
        }),
      );
      return { status: 201, body: reply.body };
    },
    listOrders: async ({ req }) => ({ status: 200, body: await orders.list(signedInActor(req)) }),
    getOrder: async ({ params, req }) => ({ status: 200, body: await orders.get(signedInActor(req), params.id) }),
    refundOrder: async ({ params, body, req }) => ({
      status: 200,
      body: await orders.refund(signedInActor(req), params.id, body),
    }),
    invoice: async ({ params, req, res }) => {
      const invoice = await invoices.invoiceOf(signedInActor(req), params.id);
      res.setHeader('Cache-Control', 'private, no-store');
      if (wantsJson(req.headers.accept)) return { status: 200, body: { invoice } };
      res.setHeader('Content-Type', 'application/pdf');
      res.setHeader('Content-Disposition', `attachment; filename="${invoice.number}.pdf"`);
      // the file instead of the JSON (metadata.alsoContentTypes): the router sends a buffer as it is
      return { status: 200, body: (await renderInvoicePdf(invoice)) as never };
    },
    sellerStats: async ({ query, req }) => ({
      status: 200,
      body: { stats: await sellerStats.of(signedInActor(req), query.period) },
    }),
    sandboxCheckout: async ({ params, query, res }) => {
      const html = await sandbox.page(params.paymentId, query.outcome);
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      return { status: 200, body: html };
    },
    paymentWebhook: async ({ req }) => {
      const event = await provider.parseWebhook(req.rawBody ?? Buffer.alloc(0), req.headers);
      if (event) await settlement.apply(event);
      return { status: 200, body: { received: true as const } };
    },
    download: async ({ params, req }) => ({
      status: 200,
      body: await downloads.link(signedInActor(req), params.product_id),
    }),
    downloadFile: async ({ params, query, res }) => {
      const served = await downloads.serve(params.product_id, query);
      if ('redirect' in served) {
        res.setHeader('Location', served.redirect);
        res.setHeader('Cache-Control', 'no-store');
        return { status: 302, body: undefined };
      }
      for (const [name, value] of Object.entries(served.headers)) res.setHeader(name, value);
      served.body.on('error', () => res.destroy());
      return { status: 200, body: served.body };
    },
    createReview: async ({ params, body, req }) => {
      const { created, review } = await reviews.upsert(signedInActor(req), params.id, body);
      return created ? { status: 201, body: review } : { status: 200, body: review };
    },
    listReviews: async ({ params, query, req, res }) => {
      const page = await reviews.list(actorOf(req), params.id, query.page, query.limit);
      res.setHeader('X-Total-Count', String(page.total));
      return { status: 200, body: page.reviews };
    },
    deleteReview: async ({ params, req }) => {
      await reviews.remove(signedInActor(req), params.id, params.reviewId);
      return { status: 200, body: { message: 'Review deleted' } };
    },
  };
}

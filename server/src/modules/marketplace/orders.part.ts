import type { ModuleJob } from '../../platform/module.js';
import { DownloadsRepository } from './downloads.repository.js';
import { DownloadsService } from './downloads.service.js';
import type { MarketplaceParts } from './marketplace.parts.js';
import { IdempotencyKeys } from './order-idempotency.js';
import { OrderSettlementRepository } from './order-settlement.repository.js';
import { OrderSettlement } from './order-settlement.js';
import './orders.events.js';
import { OrdersRepository } from './orders.repository.js';
import { orderRoutes } from './orders.routes.js';
import { OrdersService } from './orders.service.js';
import { createPaymentProvider } from './payments/payment-providers.js';
import { SandboxCheckout } from './payments/sandbox-checkout.js';
import { ReviewsRepository } from './reviews.repository.js';
import { ReviewsService } from './reviews.service.js';
import { sandboxSecret } from './payments/sandbox-provider.js';
import { InvoiceNumbers } from './invoices/invoice-numbers.js';
import { InvoicesRepository } from './invoices/invoices.repository.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { SellerStatsRepository } from './seller-stats.repository.js';
import { SellerStatsService } from './seller-stats.service.js';

/** The orders part of the marketplace: its routes and jobs, built from the platform. */
export function createOrdersPart(parts: MarketplaceParts): {
  routes: ReturnType<typeof orderRoutes>;
  jobs: ModuleJob[];
  orders: OrdersService;
} {
  const { platform, people, tracks } = parts;
  const { scope, clock, config } = platform;
  const provider = createPaymentProvider(platform);
  const orders = new OrdersRepository(scope);
  const settlement = new OrderSettlement({
    scope,
    clock,
    logger: platform.logger,
    events: platform.events,
    mail: platform.mail,
    people,
    orders,
    settlement: new OrderSettlementRepository(scope),
    provider,
    appBaseUrl: config.appBaseUrl,
  });
  const idempotency = new IdempotencyKeys({ scope, clock });
  const sandbox = new SandboxCheckout({
    enabled: provider.name === 'sandbox',
    orders,
    jobs: platform.jobs,
    clock,
    logger: platform.logger,
    secret: sandboxSecret(platform.keys.key('payment-sandbox')),
    webhookUrl: `${config.publicBaseUrl}/api/v1/marketplace/payments/webhook`,
  });
  const downloads = new DownloadsService({
    scope,
    clock,
    storage: platform.storage,
    tracks,
    downloads: new DownloadsRepository(scope),
    key: platform.keys.key('marketplace-download'),
    publicBaseUrl: config.publicBaseUrl,
  });
  const service = new OrdersService({ scope, clock, events: platform.events, orders, settlement, provider });
  const invoices = new InvoicesService({
    scope,
    clock,
    orders,
    invoices: new InvoicesRepository(scope),
    numbers: new InvoiceNumbers(scope),
    people,
  });
  return {
    routes: orderRoutes({
      orders: service,
      idempotency,
      settlement,
      provider,
      sandbox,
      downloads,
      reviews: new ReviewsService({ scope, reviews: new ReviewsRepository(scope) }),
      invoices,
      sellerStats: new SellerStatsService({ clock, stats: new SellerStatsRepository(scope) }),
    }),
    orders: service,
    jobs: [
      sandbox.job(),
      { name: 'marketplace.orders-expire', everyMs: 60_000, retryLimit: 0, handle: () => settlement.expirePending() },
      { name: 'marketplace.idempotency-prune', everyMs: 60 * 60_000, retryLimit: 0, handle: () => idempotency.prune() },
    ],
  };
}

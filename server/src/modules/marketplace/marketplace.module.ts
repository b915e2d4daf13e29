import { contract, type Order, type Product } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { Searcher } from '../../platform/search/searcher.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { DownloadsRepository } from './downloads.repository.js';
import { DownloadsService } from './downloads.service.js';
import { InvoiceNumbers } from './invoices/invoice-numbers.js';
import { InvoicesRepository } from './invoices/invoices.repository.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { IdempotencyKeys } from './order-idempotency.js';
import { OrderSettlementRepository } from './order-settlement.repository.js';
import { OrderSettlement } from './order-settlement.js';
import './marketplace.jobs.js';
import './orders.events.js';
import { type OrderSales, OrdersRepository } from './orders.repository.js';
import { orderRoutes } from './orders.routes.js';
import { OrdersService } from './orders.service.js';
import { createPaymentProvider } from './payments/payment-providers.js';
import { SandboxCheckout } from './payments/sandbox-checkout.js';
import { sandboxSecret } from './payments/sandbox-provider.js';
import { ProductAccountData } from './product-account-data.js';
import { ProductMediaService } from './product-media.service.js';
import './products.events.js';
import { ProductsRepository } from './products.repository.js';
import { productRoutes } from './products.routes.js';
import { ProductsService } from './products.service.js';
import { PromoCodesRepository } from './promo-codes.repository.js';
import { promoCodeRoutes } from './promo-codes.routes.js';
import { PromoCodesService } from './promo-codes.service.js';
import { ReviewsRepository } from './reviews.repository.js';
import { ReviewsService } from './reviews.service.js';
import { SellerStatsRepository } from './seller-stats.repository.js';
import { SellerStatsService } from './seller-stats.service.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { createProductModeration } from './product-moderation.js';
import { archiveBannedSellers, failSanctionedBuyersOrders } from './account-sanctions.js';

export interface MarketplaceModuleDeps {
  /** The tracks area's read port: a track product links a track of the seller's and delivers its original. */
  tracks: TrackReader;
  /** The users area's read port: sellers and buyers. */
  people: PeopleReader;
}

export type MarketplaceModule = RiffModule & {
  /** Its items' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: {
    products: ProductsService;
    orders: OrdersService;
    promoCodes: PromoCodesService;
    /** Applies a verified payment provider event, as the payment webhook route does after checking its signature. */
    settlement: OrderSettlement;
    reviews: ReviewsService;
    downloads: DownloadsService;
  };
  /** For GET /search: the products' part. */
  searcher: Searcher<Product>;
  /** For webhooks: a product and an order as this caller reads them (GET /marketplace/products/{id}, /orders/{id}). */
  productFor(actor: Actor, id: string): Promise<Product>;
  orderFor(actor: UserActor, id: string): Promise<Order>;
  /** An order's buyer (null once their account is deleted; undefined for no such order): whom a sale was to. */
  orderBuyer(id: string): Promise<string | null | undefined>;
  /** For analytics: what these orders sold, by whom, of which track, and when they completed. */
  orderSales(orderIds: readonly string[]): Promise<Map<string, OrderSales>>;
  /** For the admin area's figures: orders completed since, their totals by currency, refunds. */
  orderFigures(since: Date): ReturnType<OrdersRepository['figures']>;
};

/**
 * The marketplace: products (catalogue, licenses, images, previews, files), orders (payments,
 * refunds, invoices, downloads, reviews, seller stats) and promo codes, one router over them.
 */
export function createMarketplaceModule(platform: Platform, deps: MarketplaceModuleDeps): MarketplaceModule {
  const { scope, clock, events, storage, logger, config, keys, limits } = platform;
  const { tracks, people } = deps;
  const { publicBaseUrl } = config;

  // products
  const products = new ProductsRepository(scope);
  const catalog = new ProductsService({
    scope,
    events,
    storage,
    logger,
    tracks,
    people,
    products,
    created: policyLimiter(limits, 'products-created'),
    publicBaseUrl,
  });
  const productMedia = new ProductMediaService({
    scope,
    storage,
    logger,
    products,
    catalog,
    uploads: policyLimiter(limits, 'product-uploads'),
    publicBaseUrl,
    ffmpegPath: config.ffmpegPath,
  });
  const productData = new ProductAccountData({ scope, storage, logger, products, publicBaseUrl });

  // orders
  const provider = createPaymentProvider({ config, keys, clock });
  const orderRows = new OrdersRepository(scope);
  const settlement = new OrderSettlement({
    scope,
    clock,
    logger,
    events,
    mail: platform.mail,
    people,
    orders: orderRows,
    settlement: new OrderSettlementRepository(scope),
    provider,
    appBaseUrl: config.appBaseUrl,
  });
  const idempotency = new IdempotencyKeys({ scope, clock });
  const sandbox = new SandboxCheckout({
    enabled: provider.name === 'sandbox',
    orders: orderRows,
    jobs: platform.jobs,
    clock,
    logger,
    secret: sandboxSecret(keys.key('payment-sandbox')),
    webhookUrl: `${publicBaseUrl}/api/v1/marketplace/payments/webhook`,
  });
  const orders = new OrdersService({ scope, clock, events, orders: orderRows, settlement, provider });
  const promoCodes = new PromoCodesService({ scope, clock, promoCodes: new PromoCodesRepository(scope) });
  const downloads = new DownloadsService({
    scope,
    clock,
    storage,
    tracks,
    downloads: new DownloadsRepository(scope),
    key: keys.key('marketplace-download'),
    publicBaseUrl,
  });
  const reviews = new ReviewsService({ scope, reviews: new ReviewsRepository(scope) });

  return {
    name: 'marketplace',
    moderation: createProductModeration(platform.scope, platform.clock),
    routes: {
      marketplace: contractRoutes(contract.marketplace, {
        ...productRoutes({ products: catalog, media: productMedia, publicBaseUrl }),
        ...orderRoutes({
          orders,
          idempotency,
          settlement,
          provider,
          sandbox,
          downloads,
          reviews,
          invoices: new InvoicesService({
            scope,
            clock,
            orders: orderRows,
            invoices: new InvoicesRepository(scope),
            numbers: new InvoiceNumbers(scope),
            people,
          }),
          sellerStats: new SellerStatsService({ clock, stats: new SellerStatsRepository(scope) }),
        }),
        ...promoCodeRoutes(promoCodes),
      }),
    },
    services: { products: catalog, orders, promoCodes, settlement, reviews, downloads },
    eventHandlers: [archiveBannedSellers(catalog), failSanctionedBuyersOrders(settlement)],
    jobs: [
      sandbox.job(),
      // a minute's product changes folded into one count row per (status, type): the list's total reads a handful of rows
      {
        name: 'marketplace.fold-product-counts',
        everyMs: 60_000,
        retryLimit: 0,
        handle: () => products.foldCountDeltas(),
      },
      { name: 'marketplace.orders-expire', everyMs: 60_000, retryLimit: 0, handle: () => settlement.expirePending() },
      { name: 'marketplace.idempotency-prune', everyMs: 60 * 60_000, retryLimit: 0, handle: () => idempotency.prune() },
    ],
    accountData: {
      // orders stay with the erasure: the users area anonymises the account row they name, and invoices keep their parties
      export: async (owner) => ({
        ...(await productData.exportFor(owner)),
        ...(await orders.exportFor(owner)),
      }),
      erase: (owner) => productData.eraseFor(owner),
    },
    searcher: {
      search: (actor, q, page) => catalog.list(actor, { q, ...page }),
      // products are found by search, not suggested: suggestions name tracks, artists, users and playlists
      suggest: async () => [],
    },
    productFor: (actor, id) => catalog.get(actor, id),
    orderFor: (actor, id) => orders.get(actor, id),
    orderBuyer: async (id) => (await orderRows.find(id))?.buyer_id,
    orderSales: (ids) => orderRows.sales(ids),
    orderFigures: (since) => orderRows.figures(since),
  };
}

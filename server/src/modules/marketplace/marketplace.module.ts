import type { Order, Product } from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import type { Searcher } from '../../platform/search/searcher.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { MarketplaceParts } from './marketplace.parts.js';
import { ProductCatalog } from './product-catalog.js';
import { createProductsPart } from './products.part.js';
import { ProductsRepository } from './products.repository.js';
import { createOrdersPart } from './orders.part.js';
import { promoCodeRoutes } from './promo-codes.routes.js';

export interface MarketplaceModuleDeps {
  tracks: TrackReader;
  people: PeopleReader;
}

/**
 * The marketplace: the products part (catalogue, licenses, images, previews, files) and the orders
 * part (orders, payments, promo codes, refunds, invoices, downloads, reviews, seller stats), each a
 * routes object over the same MarketplaceParts.
 */
export type MarketplaceModule = RiffModule & {
  /** For GET /search: the products' part. */
  searcher: Searcher<Product>;
  /** For webhooks: a product and an order as this caller reads them (GET /marketplace/products/{id}, /orders/{id}). */
  productFor(actor: Actor, id: string): Promise<Product>;
  orderFor(actor: UserActor, id: string): Promise<Order>;
};

export function createMarketplaceModule(platform: Platform, deps: MarketplaceModuleDeps): MarketplaceModule {
  const productRows = new ProductsRepository(platform.scope);
  const parts: MarketplaceParts = {
    platform,
    tracks: deps.tracks,
    people: deps.people,
    catalog: new ProductCatalog(productRows),
  };
  const products = createProductsPart(parts, productRows);
  // each part of the area adds its routes object here (keys as in contract.marketplace)
  const orders = createOrdersPart(parts);
  const routeParts: object[] = [products.routes, orders.routes, promoCodeRoutes(parts)];
  return {
    name: 'marketplace',
    routes: { marketplace: Object.assign({}, ...routeParts) as Record<string, unknown> },
    jobs: [...products.jobs, ...orders.jobs],
    accountData: {
      // orders stay with the erasure: the users area anonymises the account row they name, and invoices keep their parties
      export: async (owner) => ({
        ...(await products.accountData.exportFor(owner)),
        ...(await orders.orders.exportFor(owner)),
      }),
      erase: (owner) => products.accountData.eraseFor(owner),
    },
    searcher: products.searcher,
    productFor: products.product,
    orderFor: (actor, id) => orders.orders.get(actor, id),
  };
}

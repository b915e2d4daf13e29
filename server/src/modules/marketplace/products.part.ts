import type { Product } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { ModuleJob } from '../../platform/module.js';
import { policyLimiter } from '../../platform/rate-limit/limit-policies.js';
import type { Searcher } from '../../platform/search/searcher.js';
import './products.events.js';
import type { MarketplaceParts } from './marketplace.parts.js';
import { ProductAccountData } from './product-account-data.js';
import { ProductMediaService } from './product-media.service.js';
import type { ProductsRepository } from './products.repository.js';
import { productRoutes } from './products.routes.js';
import { ProductsService } from './products.service.js';

/** The products part built: its routes and its share of the account's data. */
export function createProductsPart(parts: MarketplaceParts, repository: ProductsRepository) {
  const products = new ProductsService(parts, repository, policyLimiter(parts.platform.limits, 'products-created'));
  const media = new ProductMediaService(
    parts,
    repository,
    products,
    policyLimiter(parts.platform.limits, 'product-uploads'),
  );
  return {
    routes: productRoutes({ products, media, publicBaseUrl: parts.platform.config.publicBaseUrl }),
    accountData: new ProductAccountData(parts, repository),
    jobs: [
      // a minute's product changes folded into one count row per (status, type): the list's total reads a handful of rows
      {
        name: 'marketplace.fold-product-counts',
        everyMs: 60_000,
        retryLimit: 0,
        handle: () => repository.foldCountDeltas(),
      },
    ] satisfies ModuleJob[],
    product: (actor: Actor, id: string) => products.get(actor, id),
    searcher: {
      search: (actor, q, page) => products.list(actor, { q, ...page }),
      // products are found by search, not suggested: suggestions are track titles, artists,
      // usernames and playlist titles
      suggest: async () => [],
    } satisfies Searcher<Product>,
  };
}

import type { Product } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Logger } from 'pino';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { toProductDto } from './products.mapper.js';
import type { ProductsRepository } from './products.repository.js';
import { productFolder } from './products.service.js';

export interface ProductAccountDataDeps {
  scope: DbScope;
  storage: ObjectStorage;
  logger: Logger;
  products: ProductsRepository;
  publicBaseUrl: string;
}

/**
 * A seller's products in the data export, and their erasure with the account. A product no order
 * names goes with its files; one that orders name stays as their record (order_items restricts its
 * deletion): archived, its images and previews removed, its licenses and deliverable kept so that
 * buyers keep what they paid for. The account row itself is anonymised by the users area.
 */
export class ProductAccountData {
  constructor(private readonly deps: ProductAccountDataDeps) {}

  private get products() {
    return this.deps.products;
  }

  async exportFor(owner: UserActor): Promise<{ marketplace_products: Product[] }> {
    const bundles = await this.products.bundles(await this.products.listBySeller(owner.id));
    return {
      marketplace_products: bundles.map((bundle) => toProductDto(bundle, this.deps.publicBaseUrl)),
    };
  }

  async eraseFor(owner: UserActor): Promise<Record<string, number>> {
    const { scope, storage, logger } = this.deps;
    return scope.transaction(async () => {
      let removed = 0;
      let archived = 0;
      const files: string[] = [];
      const folders: string[] = [];
      for (const product of await this.products.listBySeller(owner.id)) {
        if (await this.products.hasOrders(product.id)) {
          const [bundle] = await this.products.bundles([product]);
          files.push(
            ...bundle!.images.map((row) => row.storage_key),
            ...bundle!.previews.map((row) => row.storage_key),
          );
          await this.products.deleteShowcase(product.id);
          if (product.status !== 'archived') await this.products.update(product.id, { status: 'archived' });
          archived += 1;
        } else {
          await this.products.delete(product.id);
          folders.push(productFolder(product.id));
          removed += 1;
        }
      }
      scope.afterCommit(async () => {
        const failed = (error: unknown) => logger.warn({ err: error }, 'could not delete an erased product’s files');
        await Promise.all([
          ...files.map((key) => storage.delete(key).catch(failed)),
          ...folders.map((folder) => storage.deletePrefix(folder).catch(failed)),
        ]);
      });
      return { removed_products: removed, archived_products: archived };
    });
  }
}

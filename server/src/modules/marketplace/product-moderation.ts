import type { ModeratedContent } from '../../platform/access/moderation.js';
import { moderatedTable } from '../../platform/access/moderated-table.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ProductRow } from './products.repository.js';

/** The marketplace's side of moderation: a product's state, read and set over its own table. */
export function createProductModeration(scope: DbScope, clock: Clock): ModeratedContent {
  return moderatedTable<ProductRow>(scope, clock, {
    table: 'products',
    ownerColumn: 'seller_id',
    snapshot: (row) => ({
      title: row.title,
      description: row.description,
      product_type: row.product_type,
      price_cents: Number(row.price_cents),
      currency: row.currency,
      status: row.status,
      file_name: row.file_name,
    }),
  });
}

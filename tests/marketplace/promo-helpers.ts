import type { TestServer } from '../support/test-server.js';

export interface ProductFields {
  title?: string;
  price_cents?: number;
  currency?: string;
  status?: 'draft' | 'active' | 'archived';
}

/**
 * A product row of the seller's, written straight to the database: the promo-code and pricing tests
 * need products, which another part of the marketplace creates through the API.
 */
export async function insertProduct(
  server: TestServer,
  sellerId: string,
  fields: ProductFields = {},
): Promise<{ id: string; price_cents: number; currency: string }> {
  const row = await server.riff.platform.scope.db
    .insertInto('products')
    .values({
      seller_id: sellerId,
      title: fields.title ?? 'Beat pack',
      price_cents: fields.price_cents ?? 1999,
      currency: fields.currency ?? 'USD',
      product_type: 'pack',
      status: fields.status ?? 'active',
    })
    .returning(['id', 'price_cents', 'currency'])
    .executeTakeFirstOrThrow();
  return { id: row.id, price_cents: Number(row.price_cents), currency: row.currency };
}

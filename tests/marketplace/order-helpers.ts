/**
 * Test factories of the orders part. Products and promo codes are inserted as rows here (the
 * products and promo-code APIs are another part): once those exist, these switch to the API, and
 * the tests that use them stay as they are.
 */
import { Readable } from 'node:stream';
import type { Order, ProductLicenseType } from '@riff/contract';
import { runDueJobs } from '../support/jobs.js';
import type { TestServer } from '../support/test-server.js';
import { expectStatus, type TypedApi } from '../support/typed-api.js';

export interface ProductOptions {
  title?: string;
  priceCents?: number;
  currency?: string;
  status?: 'draft' | 'active' | 'archived';
  productType?: 'track' | 'pack' | 'service';
  /** Product.license_type (basic, premium, exclusive). */
  licenseType?: 'basic' | 'premium' | 'exclusive';
  licenses?: { license_type: ProductLicenseType; price_cents: number }[];
  /** The deliverable, stored as products.file_key. */
  file?: { bytes: Buffer; name: string; contentType: string };
  trackId?: string;
}

export interface TestProduct {
  id: string;
  licenses: Map<ProductLicenseType, string>;
}

const db = (server: TestServer) => server.riff.database.db;

export async function createProduct(
  server: TestServer,
  seller: { id: string },
  options: ProductOptions = {},
): Promise<TestProduct> {
  const product = await db(server)
    .insertInto('products')
    .values({
      seller_id: seller.id,
      title: options.title ?? 'Beat pack',
      price_cents: options.priceCents ?? 1999,
      currency: options.currency ?? 'USD',
      product_type: options.productType ?? (options.trackId ? 'track' : 'pack'),
      license_type: options.licenseType ?? null,
      status: options.status ?? 'active',
      track_id: options.trackId ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (options.file) {
    const key = `marketplace/products/${product.id}/file`;
    await server.riff.storage.put(key, Readable.from([options.file.bytes]), { contentType: options.file.contentType });
    await db(server)
      .updateTable('products')
      .set({
        file_key: key,
        file_name: options.file.name,
        file_size: options.file.bytes.length,
        file_content_type: options.file.contentType,
      })
      .where('id', '=', product.id)
      .execute();
  }
  const licenses = new Map<ProductLicenseType, string>();
  for (const license of options.licenses ?? []) {
    const row = await db(server)
      .insertInto('product_licenses')
      .values({ product_id: product.id, ...license })
      .returning('id')
      .executeTakeFirstOrThrow();
    licenses.set(license.license_type, row.id);
  }
  return { id: product.id, licenses };
}

export async function createPromoCode(
  server: TestServer,
  seller: { id: string },
  options: {
    code: string;
    percent_off?: number;
    amount_off_cents?: number;
    currency?: string;
    max_redemptions?: number;
    expires_at?: Date;
    product_ids?: string[];
  },
): Promise<string> {
  const row = await db(server)
    .insertInto('promo_codes')
    .values({
      seller_id: seller.id,
      code: options.code,
      code_key: options.code.toLowerCase(),
      percent_off: options.percent_off ?? null,
      amount_off_cents: options.amount_off_cents ?? null,
      currency: options.currency ?? null,
      max_redemptions: options.max_redemptions ?? null,
      expires_at: options.expires_at ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const productId of options.product_ids ?? [])
    await db(server)
      .insertInto('promo_code_products')
      .values({ promo_code_id: row.id, product_id: productId })
      .execute();
  return row.id;
}

export async function productRow(server: TestServer, id: string) {
  return db(server).selectFrom('products').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function orderRow(server: TestServer, id: string) {
  return db(server).selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Waits (running due jobs) until `check` holds; fails after `attempts` rounds. */
export async function eventually<T>(
  server: TestServer,
  read: () => Promise<T>,
  check: (value: T) => boolean,
  attempts = 500,
): Promise<T> {
  let value = await read();
  for (let round = 0; round < attempts && !check(value); round++) {
    await runDueJobs(server);
    value = await read();
    if (!check(value)) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  if (!check(value)) throw new Error(`condition not reached: ${JSON.stringify(value).slice(0, 300)}`);
  return value;
}

/** Plays the buyer on the sandbox page (`outcome`) and waits until the webhook settled the order. */
export async function payInSandbox(
  server: TestServer,
  api: TypedApi,
  order: Order,
  outcome: 'succeed' | 'fail' = 'succeed',
): Promise<Order> {
  const url = order.payment.checkout_url!;
  const reply = await fetch(`${url}?outcome=${outcome}`);
  if (reply.status !== 200) throw new Error(`sandbox page: ${reply.status} ${await reply.text()}`);
  return eventually(
    server,
    async () => expectStatus(await api.marketplace.getOrder({ params: { id: order.id } }), 200).body,
    (current) => current.status !== 'pending',
  );
}

/** [status, error code] of a refused call. */
export function errorOf(reply: { status: number; body: unknown }): [number, string] {
  return [reply.status, (reply.body as { error?: { code?: string } } | null)?.error?.code ?? ''];
}

/**
 * Test factories of the orders part: products and promo codes made through their APIs, as a seller
 * makes them.
 */
import { Readable } from 'node:stream';
import type { CreateProductRequest, Order, ProductLicenseType } from '@riff/contract';
import { backdatePromoCodeExpiry } from '../support/backdate.js';
import type { TestUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { attachProductFile } from '../support/row-states.js';
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

/** A product of the seller's (on sale unless `status` says otherwise), created and moved through the API. */
export async function createProduct(
  server: TestServer,
  seller: TestUser,
  options: ProductOptions = {},
): Promise<TestProduct> {
  const body: CreateProductRequest = {
    title: options.title ?? 'Beat pack',
    price: (options.priceCents ?? 1999) / 100,
    currency: options.currency ?? 'USD',
    product_type: options.productType ?? (options.trackId ? 'track' : 'pack'),
    ...(options.licenseType ? { license_type: options.licenseType } : {}),
    ...(options.trackId ? { track_id: options.trackId } : {}),
    ...(options.licenses ? { licenses: options.licenses } : {}),
  };
  let product = expectStatus(await seller.api.marketplace.createProduct({ body }), 201).body;
  const status = options.status ?? 'active';
  if (status !== 'draft')
    product = expectStatus(
      await seller.api.marketplace.updateProduct({ params: { id: product.id }, body: { status } }),
      200,
    ).body;
  if (options.file) {
    // written to storage and the row: the upload route takes only a real zip archive or audio (it
    // sniffs the bytes), and these tests hand small byte strings they read back from the download
    const key = `marketplace/products/${product.id}/file`;
    await server.riff.storage.put(key, Readable.from([options.file.bytes]), { contentType: options.file.contentType });
    await attachProductFile(server, product.id, key, options.file);
  }
  return {
    id: product.id,
    licenses: new Map(product.licenses.map((license) => [license.license_type, license.id])),
  };
}

/**
 * A promo code of the seller's, created through the API. An expiry in the past (an expired code)
 * is refused there, so such a code is created to expire in a minute and its expiry is then moved
 * back in its row: nothing else makes a code expire without waiting.
 */
export async function createPromoCode(
  server: TestServer,
  seller: TestUser,
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
  const expired = options.expires_at !== undefined && options.expires_at.getTime() <= Date.now();
  const expiresAt = expired ? new Date(Date.now() + 60_000) : options.expires_at;
  const created = expectStatus(
    await seller.api.marketplace.createPromoCode({
      body: {
        code: options.code,
        ...(options.percent_off !== undefined ? { percent_off: options.percent_off } : {}),
        ...(options.amount_off_cents !== undefined ? { amount_off_cents: options.amount_off_cents } : {}),
        ...(options.currency !== undefined ? { currency: options.currency } : {}),
        ...(options.max_redemptions !== undefined ? { max_redemptions: options.max_redemptions } : {}),
        ...(expiresAt ? { expires_at: expiresAt.toISOString() } : {}),
        ...(options.product_ids ? { product_ids: options.product_ids } : {}),
      },
    }),
    201,
  ).body;
  if (expired) await backdatePromoCodeExpiry(server, created.id, options.expires_at!);
  return created.id;
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

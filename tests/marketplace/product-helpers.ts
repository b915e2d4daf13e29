import type { CreateProductRequest, Product } from '@riff/contract';
import type { TestUser } from '../support/factories.js';
import type { TestServer } from '../support/test-server.js';
import { expectStatus } from '../support/typed-api.js';

/** A product made through the API as `seller` (a draft unless `status` says otherwise). */
export async function createProduct(
  seller: TestUser,
  overrides: Partial<CreateProductRequest> = {},
  status?: 'active' | 'archived',
): Promise<Product> {
  const body: CreateProductRequest = { title: 'Night Drive stems', price: 19.99, product_type: 'pack', ...overrides };
  const created = expectStatus(await seller.api.marketplace.createProduct({ body }), 201).body;
  if (!status) return created;
  return expectStatus(await seller.api.marketplace.updateProduct({ params: { id: created.id }, body: { status } }), 200)
    .body;
}

/** Sends a multipart form with `bytes` as its `file` field. */
export async function sendFile(
  server: TestServer,
  token: string | undefined,
  method: string,
  path: string,
  bytes: Buffer,
  filename: string,
) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
    method,
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** GETs raw bytes (images, previews, files). */
export async function getBytes(url: string, token?: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** An order of the buyer's naming the product, placed through the API (pending payment: it names the product all the same). */
export async function orderProduct(buyer: TestUser, product: Product): Promise<void> {
  expectStatus(await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }), 201);
}

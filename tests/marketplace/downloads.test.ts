import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, errorOf, payInSandbox, productRow } from './order-helpers.js';

const suite = useTestServer();
const db = () => suite.server.riff.database.db;

describe('downloads of purchased products', () => {
  it('a track product delivers the track’s original file through a signed URL, counted each time', async () => {
    const [seller, buyer] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const track = await createTrack(suite.server, seller, { title: 'Loop', isPublic: false });
    const product = await createProduct(suite.server, seller, { trackId: track.id, priceCents: 300 });
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    // a pending order is no license
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
    await payInSandbox(suite.server, buyer.api, order);
    const link = expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body;
    expect(link.filename).toBe('Loop.mp3');
    const expiresIn = new Date(link.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000 + 1000);
    for (let round = 1; round <= 2; round++) {
      // no bearer: the URL is the credential
      const file = await fetch(link.url);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('audio/mpeg');
      const bytes = Buffer.from(await file.arrayBuffer());
      expect(bytes.length).toBe(track.file_size);
      expect((await productRow(suite.server, product.id)).download_count).toBe(round);
    }
    const counted = await db()
      .selectFrom('product_downloads')
      .selectAll()
      .where('product_id', '=', product.id)
      .execute();
    expect(counted.map((row) => row.user_id)).toEqual([buyer.id, buyer.id]);
  });

  it('an altered or expired URL is 403; an unknown product 404; a product with nothing to deliver 404', async () => {
    const [seller, buyer, other] = await Promise.all([
      createUser(suite.server),
      createUser(suite.server),
      createUser(suite.server),
    ]);
    const product = await createProduct(suite.server, seller, {
      file: { bytes: Buffer.from('zip'), name: 'pack.zip', contentType: 'application/zip' },
    });
    const service = await createProduct(suite.server, seller, { productType: 'service', priceCents: 0 });
    const order = expectStatus(
      await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: product.id }] } }),
      201,
    ).body;
    await payInSandbox(suite.server, buyer.api, order);
    const link = new URL(
      expectStatus(await buyer.api.marketplace.download({ params: { product_id: product.id } }), 200).body.url,
    );

    const altered = new URL(link);
    altered.searchParams.set('user', other.id);
    expect((await fetch(altered)).status).toBe(403);
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    expect((await fetch(later)).status).toBe(403);
    const expired = new URL(link);
    expired.searchParams.set('expires', '1000');
    expect((await fetch(expired)).status).toBe(403);
    expect((await productRow(suite.server, product.id)).download_count).toBe(0);

    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: randomUUID() } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await other.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      403,
      'NO_LICENSE',
    ]);
    // a service (free here, so the order completes at once) has nothing to download
    expectStatus(await buyer.api.marketplace.createOrder({ body: { items: [{ product_id: service.id }] } }), 201);
    expect(errorOf(await buyer.api.marketplace.download({ params: { product_id: service.id } }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await suite.api.marketplace.download({ params: { product_id: product.id } }))).toEqual([
      401,
      'UNAUTHENTICATED',
    ]);
  });
});

/**
 * The catalogue (ADDENDUM Part 2 "Marketplace"): products, their status moves, who sees and who
 * changes them, licenses, the list with its filters and header pagination, deletion.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { seedProducts } from '../support/seed-rows.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, orderProduct } from './product-helpers.js';

const suite = useTestServer();

describe('creating a product', () => {
  it('makes a draft, in major units and cents, USD by default, with the license aliases mapped', async () => {
    const seller = await createUser(suite.server);
    const product = await createProduct(seller, {
      title: '  Lo-fi kit  ',
      price: 19.99,
      license_type: 'standard',
      category: 'pack',
      bpm: 90,
      musical_key: 'Am',
      licenses: [
        { license_type: 'personal', price_cents: 999 },
        { license_type: 'commercial', price_cents: 4999, terms_text: 'One release' },
      ],
    });
    expect(product).toMatchObject({
      seller_id: seller.id,
      title: 'Lo-fi kit',
      price: 19.99,
      currency: 'USD',
      status: 'draft',
      license_type: 'basic',
      category: 'pack',
      bpm: 90,
      musical_key: 'Am',
      track_id: null,
      avg_rating: null,
      review_count: 0,
      images: [],
      previews: [],
      file: null,
    });
    expect(
      product.licenses.map((license) => [
        license.license_type,
        license.price_cents,
        license.terms_text,
        license.is_available,
      ]),
    ).toEqual([
      ['personal', 999, null, true],
      ['commercial', 4999, 'One release', true],
    ]);
    const premium = await createProduct(seller, { license_type: 'commercial', currency: 'EUR', price: 0.1 });
    expect([premium.license_type, premium.currency, premium.price]).toEqual(['premium', 'EUR', 0.1]);
    const spelled = await createProduct(seller, { license_type: 'premium' });
    expect(spelled.license_type).toBe('premium');
    const exclusive = await createProduct(seller, { license_type: 'exclusive', price: 1234.5 });
    expect([exclusive.license_type, exclusive.price]).toEqual(['exclusive', 1234.5]);
  });

  it('refuses bad input with 400 and the field named, and nothing is created', async () => {
    const seller = await createUser(suite.server);
    const valid = { title: 'Valid title', price: 5, product_type: 'pack' };
    const bad: Array<[string, Record<string, unknown>]> = [
      ['title', { ...valid, title: 'ab' }],
      ['title', { ...valid, title: 'x'.repeat(201) }],
      ['price', { ...valid, price: 1.999 }],
      ['price', { ...valid, price: -1 }],
      ['price', { ...valid, price: '5' }],
      ['product_type', { ...valid, product_type: 'service-ish' }],
      ['description', { ...valid, description: 'd'.repeat(2001) }],
      ['bpm', { ...valid, bpm: 301 }],
      ['bpm', { ...valid, bpm: 0 }],
      ['musical_key', { ...valid, musical_key: 'C sharp minor' }],
      ['currency', { ...valid, currency: 'usd' }],
      ['currency', { ...valid, currency: 'XYZ' }],
      ['license_type', { ...valid, license_type: 'lifetime' }],
      ['category', { ...valid, category: 'loop' }],
      [
        'licenses',
        {
          ...valid,
          licenses: [
            { license_type: 'personal', price_cents: 1 },
            { license_type: 'personal', price_cents: 2 },
          ],
        },
      ],
      ['licenses.0.price_cents', { ...valid, licenses: [{ license_type: 'personal', price_cents: 1.5 }] }],
      ['licenses.0.license_type', { ...valid, licenses: [{ license_type: 'basic', price_cents: 1 }] }],
      ['track_id', { ...valid, product_type: 'track' }],
      ['track_id', { ...valid, track_id: randomUUID() }],
    ];
    for (const [field, body] of bad) {
      const reply = await suite.http.post('/marketplace/products', { token: seller.token, body });
      expect([reply.status, reply.body?.error?.code], `${field}: ${reply.text}`).toEqual([400, 'VALIDATION_FAILED']);
      expect(JSON.stringify(reply.body.error.details ?? []), field).toContain(field.split('.')[0]);
    }
    const anonymous = await suite.http.post('/marketplace/products', { body: valid });
    expect(anonymous.status).toBe(401);
    const mine = expectStatus(await seller.api.marketplace.listProducts({ query: { seller_id: seller.id } }), 200);
    expect(mine.body).toEqual([]);
  });

  it('a track product links one of the seller’s tracks, not another’s', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const own = await createTrack(suite.server, seller);
    const theirs = await createTrack(suite.server, other);
    const hidden = await createTrack(suite.server, other, { isPublic: false });
    const product = await createProduct(seller, { product_type: 'track', track_id: own.id, category: 'beat' });
    expect([product.product_type, product.track_id]).toEqual(['track', own.id]);
    const foreign = await suite.http.post('/marketplace/products', {
      token: seller.token,
      body: { title: 'Not mine', price: 1, product_type: 'track', track_id: theirs.id },
    });
    expect([foreign.status, foreign.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unseen = await suite.http.post('/marketplace/products', {
      token: seller.token,
      body: { title: 'Not mine', price: 1, product_type: 'track', track_id: hidden.id },
    });
    expect([unseen.status, unseen.body.error.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('stops at 500 products per seller with 400 LIMIT_REACHED', async () => {
    const seller = await createUser(suite.server);
    await seedProducts(suite.server, seller.id, 499);
    await createProduct(seller);
    const over = await suite.http.post('/marketplace/products', {
      token: seller.token,
      body: { title: 'One too many', price: 1, product_type: 'pack' },
    });
    expect([over.status, over.body.error.code]).toEqual([400, 'LIMIT_REACHED']);
  });
});

describe('rate limits', () => {
  it('a seller creates at most 30 products a minute (429 with Retry-After); refused creations do not count', async () => {
    const seller = await createUser(suite.server);
    const refused = await suite.http.post('/marketplace/products', {
      token: seller.token,
      body: { title: 'ab', price: 1, product_type: 'pack' },
    });
    expect(refused.status).toBe(400);
    for (let index = 0; index < 30; index += 1) await createProduct(seller, { title: `Quick ${index}` });
    const over = await suite.http.post('/marketplace/products', {
      token: seller.token,
      body: { title: 'One more', price: 1, product_type: 'pack' },
    });
    expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await createUser(suite.server);
    await createProduct(other);
  });
});

describe('who sees and who changes a product', () => {
  it('a draft is its seller’s only: 404 to others, signed in or not', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const draft = await createProduct(seller);
    expect(expectStatus(await seller.api.marketplace.getProduct({ params: { id: draft.id } }), 200).body.status).toBe(
      'draft',
    );
    for (const reply of [
      await other.api.marketplace.getProduct({ params: { id: draft.id } }),
      await suite.api.marketplace.getProduct({ params: { id: draft.id } }),
    ]) {
      expect([reply.status, (reply.body as any).error?.code]).toEqual([404, 'NOT_FOUND']);
    }
    const put = await other.api.marketplace.updateProduct({ params: { id: draft.id }, body: { title: 'Taken over' } });
    expect(put.status).toBe(404);
    const malformed = await suite.http.get('/marketplace/products/not-a-uuid');
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'INVALID_ID']);
  });

  it('an active product is seen by all and changed by its seller only (403 for others)', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const product = await createProduct(seller, {}, 'active');
    expect(expectStatus(await suite.api.marketplace.getProduct({ params: { id: product.id } }), 200).body.title).toBe(
      'Night Drive stems',
    );
    const refusals = [
      await other.api.marketplace.updateProduct({ params: { id: product.id }, body: { title: 'Taken over' } }),
      await other.api.marketplace.deleteProduct({ params: { id: product.id } }),
      await other.api.marketplace.createLicense({
        params: { id: product.id },
        body: { license_type: 'personal', price_cents: 1 },
      }),
    ];
    for (const reply of refusals) expect([reply.status, (reply.body as any).error?.code]).toEqual([403, 'FORBIDDEN']);
    const after = expectStatus(await suite.api.marketplace.getProduct({ params: { id: product.id } }), 200).body;
    expect([after.title, after.status, after.licenses]).toEqual(['Night Drive stems', 'active', []]);
  });
});

describe('status moves', () => {
  it('allows draft → active → archived → active and draft → archived; others are 400 INVALID_TRANSITION', async () => {
    const seller = await createUser(suite.server);
    const product = await createProduct(seller);
    const move = (id: string, status: 'draft' | 'active' | 'archived') =>
      seller.api.marketplace.updateProduct({ params: { id }, body: { status } });
    expect(expectStatus(await move(product.id, 'active'), 200).body.status).toBe('active');
    const back = await move(product.id, 'draft');
    expect([back.status, (back.body as any).error?.code]).toEqual([400, 'INVALID_TRANSITION']);
    expect(expectStatus(await move(product.id, 'archived'), 200).body.status).toBe('archived');
    const toDraft = await move(product.id, 'draft');
    expect([toDraft.status, (toDraft.body as any).error?.code]).toEqual([400, 'INVALID_TRANSITION']);
    expect(expectStatus(await move(product.id, 'active'), 200).body.status).toBe('active');
    const other = await createProduct(seller);
    expect(expectStatus(await move(other.id, 'archived'), 200).body.status).toBe('archived');
    // a refused move changes nothing else in the same request
    const mixed = await seller.api.marketplace.updateProduct({
      params: { id: other.id },
      body: { status: 'draft', title: 'Renamed' },
    });
    expect(mixed.status).toBe(400);
    expect(expectStatus(await seller.api.marketplace.getProduct({ params: { id: other.id } }), 200).body.title).toBe(
      'Night Drive stems',
    );
  });

  it('updates the fields sent, clears with null, and replaces licenses keeping the ones of a kept type', async () => {
    const seller = await createUser(suite.server);
    const product = await createProduct(seller, {
      description: 'Old',
      bpm: 100,
      licenses: [
        { license_type: 'personal', price_cents: 500 },
        { license_type: 'streaming', price_cents: 100 },
      ],
    });
    const personal = product.licenses.find((license) => license.license_type === 'personal')!;
    const updated = expectStatus(
      await seller.api.marketplace.updateProduct({
        params: { id: product.id },
        body: {
          price: 25.5,
          description: null,
          bpm: null,
          license_type: 'commercial',
          licenses: [
            { license_type: 'personal', price_cents: 700 },
            { license_type: 'exclusive', price_cents: 90_000 },
          ],
        },
      }),
      200,
    ).body;
    expect(updated).toMatchObject({
      price: 25.5,
      description: null,
      bpm: null,
      license_type: 'premium',
      title: product.title,
    });
    expect(updated.licenses.map((license) => [license.license_type, license.price_cents])).toEqual([
      ['personal', 700],
      ['exclusive', 90_000],
    ]);
    expect(updated.licenses.find((license) => license.license_type === 'personal')!.id).toBe(personal.id);
    const bad = await suite.http.put(`/marketplace/products/${product.id}`, {
      token: seller.token,
      body: { price: 2.345 },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('licenses', () => {
  it('one per type: added (201), duplicated (409 CONFLICT), changed, removed', async () => {
    const seller = await createUser(suite.server);
    const product = await createProduct(seller);
    const license = expectStatus(
      await seller.api.marketplace.createLicense({
        params: { id: product.id },
        body: { license_type: 'commercial', price_cents: 2999, terms_text: 'Terms' },
      }),
      201,
    ).body;
    expect(license).toMatchObject({
      product_id: product.id,
      license_type: 'commercial',
      price_cents: 2999,
      terms_text: 'Terms',
      is_available: true,
    });
    const again = await seller.api.marketplace.createLicense({
      params: { id: product.id },
      body: { license_type: 'commercial', price_cents: 1 },
    });
    expect([again.status, (again.body as any).error?.code]).toEqual([409, 'CONFLICT']);
    const changed = expectStatus(
      await seller.api.marketplace.updateLicense({
        params: { id: product.id, licenseId: license.id },
        body: { price_cents: 3999, terms_text: null },
      }),
      200,
    ).body;
    expect([changed.price_cents, changed.terms_text]).toEqual([3999, null]);
    const negative = await suite.http.post(`/marketplace/products/${product.id}/licenses`, {
      token: seller.token,
      body: { license_type: 'personal', price_cents: -1 },
    });
    expect([negative.status, negative.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const unknown = await seller.api.marketplace.updateLicense({
      params: { id: product.id, licenseId: randomUUID() },
      body: { price_cents: 1 },
    });
    expect(unknown.status).toBe(404);
    const removed = expectStatus(
      await seller.api.marketplace.deleteLicense({ params: { id: product.id, licenseId: license.id } }),
      200,
    ).body;
    expect(removed.licenses).toEqual([]);
    expect(
      (await seller.api.marketplace.deleteLicense({ params: { id: product.id, licenseId: license.id } })).status,
    ).toBe(404);
  });
});

describe('the list', () => {
  it('shows active products to all, drafts and archived to their seller with seller_id = self, paged in headers', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const word = `zq${randomUUID().slice(0, 8)}`;
    const draft = await createProduct(seller, { title: `Draft ${word}` });
    const cheap = await createProduct(seller, { title: `Cheap ${word} kit`, price: 5 }, 'active');
    const mid = await createProduct(seller, { title: `Mid ${word}`, price: 15, product_type: 'service' }, 'active');
    const dear = await createProduct(
      seller,
      { title: 'Dear one', description: `Has ${word} inside`, price: 50 },
      'active',
    );
    const archived = await createProduct(seller, { title: `Old ${word}` }, 'archived');
    const ids = (body: Array<{ id: string }>) => body.map((product) => product.id);

    const byOthers = expectStatus(await other.api.marketplace.listProducts({ query: { seller_id: seller.id } }), 200);
    expect(ids(byOthers.body)).toEqual([dear.id, mid.id, cheap.id]);
    expect(byOthers.headers.get('x-total-count')).toBe('3');
    expect(
      expectStatus(await other.api.marketplace.listProducts({ query: { seller_id: seller.id, status: 'draft' } }), 200)
        .body,
    ).toEqual([]);
    expect(
      expectStatus(
        await suite.api.marketplace.listProducts({ query: { seller_id: seller.id, status: 'archived' } }),
        200,
      ).body,
    ).toEqual([]);

    const own = expectStatus(await seller.api.marketplace.listProducts({ query: { seller_id: seller.id } }), 200);
    expect(ids(own.body)).toEqual([archived.id, dear.id, mid.id, cheap.id, draft.id]);
    expect(
      ids(
        expectStatus(
          await seller.api.marketplace.listProducts({ query: { seller_id: seller.id, status: 'draft' } }),
          200,
        ).body,
      ),
    ).toEqual([draft.id]);
    // without seller_id the seller sees the public catalogue like everyone; q ranks titles before descriptions, then newest
    expect(ids(expectStatus(await seller.api.marketplace.listProducts({ query: { q: word } }), 200).body)).toEqual([
      mid.id,
      cheap.id,
      dear.id,
    ]);

    expect(
      ids(expectStatus(await suite.api.marketplace.listProducts({ query: { q: `${word} kit` } }), 200).body),
    ).toEqual([cheap.id]);
    expect(
      ids(expectStatus(await suite.api.marketplace.listProducts({ query: { q: word, type: 'service' } }), 200).body),
    ).toEqual([mid.id]);
    expect(
      ids(
        expectStatus(
          await suite.api.marketplace.listProducts({ query: { q: word, min_price: 10, max_price: 15 } }),
          200,
        ).body,
      ),
    ).toEqual([mid.id]);
    expect(
      ids(expectStatus(await suite.api.marketplace.listProducts({ query: { q: word, min_price: 5.01 } }), 200).body),
    ).toEqual([mid.id, dear.id]);
    expect(expectStatus(await suite.api.marketplace.listProducts({ query: { q: '100%_' } }), 200).body).toEqual([]);

    const first = expectStatus(
      await suite.api.marketplace.listProducts({ query: { seller_id: seller.id, limit: 2 } }),
      200,
    );
    expect(ids(first.body)).toEqual([dear.id, mid.id]);
    expect(first.headers.get('x-total-count')).toBe('3');
    const link = first.headers.get('link')!;
    expect(link).toContain('rel="next"');
    expect(link).toContain('rel="last"');
    expect(link).not.toContain('rel="prev"');
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    expect(next).toContain('page=2');
    const second = await fetch(next.replace(suite.server.riff.platform.config.publicBaseUrl, suite.server.baseUrl));
    expect(((await second.json()) as Array<{ id: string }>).map((product) => product.id)).toEqual([cheap.id]);
    expect(second.headers.get('link')).toContain('rel="prev"');
    const past = expectStatus(
      await suite.api.marketplace.listProducts({ query: { seller_id: seller.id, page: 9, limit: 2 } }),
      200,
    );
    expect([past.body, past.headers.get('x-total-count')]).toEqual([[], '3']);

    for (const query of [
      'limit=0',
      'limit=101',
      'min_price=-1',
      'type=loop',
      'status=sold',
      'seller_id=nope',
      'page=0',
    ]) {
      const reply = await suite.http.get(`/marketplace/products?${query}`);
      expect([reply.status, reply.body?.error?.code], query).toEqual([400, 'VALIDATION_FAILED']);
    }
  });
});

describe('deleting a product', () => {
  it('deletes one without orders and archives one with orders', async () => {
    const seller = await createUser(suite.server);
    const buyer = await createUser(suite.server);
    const lonely = await createProduct(seller, { licenses: [{ license_type: 'personal', price_cents: 100 }] });
    const removed = expectStatus(await seller.api.marketplace.deleteProduct({ params: { id: lonely.id } }), 200).body;
    expect(removed).toEqual({ id: lonely.id, result: 'deleted', product: null });
    expect((await seller.api.marketplace.getProduct({ params: { id: lonely.id } })).status).toBe(404);

    const sold = await createProduct(seller, {}, 'active');
    await orderProduct(buyer, sold);
    const archived = expectStatus(await seller.api.marketplace.deleteProduct({ params: { id: sold.id } }), 200).body;
    expect([archived.result, archived.product?.status]).toEqual(['archived', 'archived']);
    expect((await buyer.api.marketplace.getProduct({ params: { id: sold.id } })).status).toBe(404);
    expect(expectStatus(await seller.api.marketplace.getProduct({ params: { id: sold.id } }), 200).body.status).toBe(
      'archived',
    );
  });
});

import { PRODUCTS_PER_SELLER_MAX, type ProductListQuery } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { anonymousActor, type Actor } from '../../server/src/platform/access/actor.js';
import { refusal } from '../support/refusal.js';
import {
  serviceBulkProducts,
  serviceOrder,
  servicePaidOrder,
  serviceProduct,
  serviceTrack,
  serviceUser,
  type ServiceUser,
} from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of the catalogue, its reviews and its downloads, called on the services with an Actor:
// what a seller may create, who sees and changes a product in each status, what a price is, who
// reviews, and who downloads. products.test.ts, order-reviews.test.ts and downloads.test.ts hold the
// routes and the replies to the contract (the request limits among them, which the schemas decide);
// orders.service.test.ts holds the first rules of seeing and changing a product.
// the services' clock moves on demand (a download link's expiry); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const notFound = { status: 404, code: 'NOT_FOUND' };
const forbidden = { status: 403, code: 'FORBIDDEN' };
const noLicense = { status: 403, code: 'NO_LICENSE' };
const conflict = { status: 409, code: 'CONFLICT' };
const invalidTrack = { status: 400, code: 'VALIDATION_FAILED', fields: ['track_id'] };

/** A draft of the seller's, not yet on sale. */
function draftOf(seller: ServiceUser, title = 'Draft pack') {
  return suite.areas.marketplace.services.products.create(seller, { title, price: 9.99, product_type: 'pack' });
}

/** The ids of the seller's products as `viewer` lists them (newest first). */
async function listedBy(viewer: Actor, seller: ServiceUser, query: Partial<ProductListQuery> = {}) {
  const { items } = await suite.areas.marketplace.services.products.list(viewer, {
    seller_id: seller.id,
    page: 1,
    limit: 100,
    ...query,
  });
  return items.map((product) => product.id);
}

describe('creating a product (service)', () => {
  it('makes a draft of the seller’s, priced to the exact cent, in USD unless told, with the license aliases mapped', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const draft = await products.create(seller, {
      title: 'Tape loops',
      price: 0.29,
      product_type: 'pack',
      license_type: 'standard',
    });
    expect(draft).toMatchObject({
      seller_id: seller.id,
      status: 'draft',
      price: 0.29,
      currency: 'USD',
      license_type: 'basic',
      avg_rating: null,
      review_count: 0,
    });
    const euros = await products.create(seller, {
      title: 'Euro kit',
      price: 0.1,
      currency: 'EUR',
      product_type: 'pack',
      license_type: 'commercial',
    });
    expect(euros).toMatchObject({ price: 0.1, currency: 'EUR', license_type: 'premium' });
    // 0.29 is 28.999… in binary: the order still charges 29 cents, not 28
    await products.update(seller, draft.id, { status: 'active' });
    expect(await serviceOrder(suite, buyer, [draft])).toMatchObject({
      subtotal_cents: 29,
      total_cents: 29,
      currency: 'USD',
    });
  });

  it('a track product links one of the seller’s own tracks (a private one too); another’s is refused, and a pack links none', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const own = await serviceTrack(suite, seller, { title: 'Own', isPublic: false });
    const theirs = await serviceTrack(suite, other, { title: 'Theirs' });
    const hidden = await serviceTrack(suite, other, { title: 'Hidden', isPublic: false });
    const linked = await products.create(seller, { title: 'Beat', price: 5, product_type: 'track', track_id: own.id });
    expect([linked.product_type, linked.track_id]).toEqual(['track', own.id]);
    const track = { title: 'Not mine', price: 5, product_type: 'track' } as const;
    expect(await refusal(products.create(seller, { ...track, track_id: theirs.id }))).toEqual(invalidTrack);
    // a private track of another's does not exist for the seller
    expect(await refusal(products.create(seller, { ...track, track_id: hidden.id }))).toMatchObject(notFound);
    expect(await refusal(products.create(seller, track))).toEqual(invalidTrack);
    expect(await refusal(products.create(seller, { ...track, product_type: 'pack', track_id: own.id }))).toEqual(
      invalidTrack,
    );
    // nothing refused was created
    expect(await listedBy(seller, seller)).toEqual([linked.id]);
  });

  it(`a seller has at most ${PRODUCTS_PER_SELLER_MAX} products (400 LIMIT_REACHED); deleting one makes room, another seller is not held back`, async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    await serviceBulkProducts(suite, seller, PRODUCTS_PER_SELLER_MAX - 1);
    const last = await draftOf(seller, 'The last one');
    expect(await refusal(draftOf(seller, 'One too many'))).toMatchObject({ status: 400, code: 'LIMIT_REACHED' });
    expect((await products.remove(seller, last.id)).result).toBe('deleted');
    expect((await draftOf(seller, 'In its place')).status).toBe('draft');
    expect(await refusal(draftOf(seller, 'Still too many'))).toMatchObject({ code: 'LIMIT_REACHED' });
    const other = await serviceUser(suite);
    expect((await draftOf(other)).seller_id).toBe(other.id);
  });

  it('a seller creates at most 30 products a minute (429 RATE_LIMITED); refused creations do not count, nor do others’', async () => {
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const { products } = suite.areas.marketplace.services;
    expect(await refusal(products.create(seller, { title: 'No track', price: 1, product_type: 'track' }))).toEqual(
      invalidTrack,
    );
    for (let index = 0; index < 30; index += 1) await draftOf(seller, `Quick ${index}`);
    expect(await refusal(draftOf(seller, 'One more'))).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((await draftOf(other)).seller_id).toBe(other.id);
    expect(await listedBy(seller, seller)).toHaveLength(30);
  });
});

describe('seeing and changing a product (service)', () => {
  it('an archived product is seen by its seller and admins only: 404 for others, signed in or not, and left out of their lists', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const draft = await draftOf(seller);
    const active = await serviceProduct(suite, seller, { title: 'On sale' });
    const archived = await serviceProduct(suite, seller, { title: 'Off sale' });
    await products.update(seller, archived.id, { status: 'archived' });
    expect(await refusal(products.get(other, archived.id))).toMatchObject(notFound);
    expect(await refusal(products.get(anonymousActor(), archived.id))).toMatchObject(notFound);
    expect(await refusal(products.get(anonymousActor(), draft.id))).toMatchObject(notFound);
    expect((await products.get(admin, archived.id)).status).toBe('archived');
    expect((await products.get(seller, archived.id)).status).toBe('archived');
    expect(await listedBy(other, seller)).toEqual([active.id]);
    expect(await listedBy(anonymousActor(), seller)).toEqual([active.id]);
    // asking for another status shows others nothing rather than the active ones
    expect(await listedBy(other, seller, { status: 'archived' })).toEqual([]);
    expect(await listedBy(seller, seller)).toEqual([archived.id, active.id, draft.id]);
    expect(await listedBy(seller, seller, { status: 'draft' })).toEqual([draft.id]);
  });

  it('others cannot change or remove a product: 403 when they see it, 404 when it is a draft; the seller’s own removal deletes it', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const draft = await draftOf(seller);
    const active = await serviceProduct(suite, seller);
    expect(await refusal(products.remove(other, active.id))).toMatchObject(forbidden);
    expect(await refusal(products.remove(admin, active.id))).toMatchObject(forbidden);
    expect(await refusal(products.remove(other, draft.id))).toMatchObject(notFound);
    expect(await refusal(products.update(other, draft.id, { title: 'Mine now' }))).toMatchObject(notFound);
    expect(
      await refusal(products.createLicense(other, active.id, { license_type: 'personal', price_cents: 1 })),
    ).toMatchObject(forbidden);
    expect((await products.get(other, active.id)).title).toBe(active.title);
    expect(await products.remove(seller, draft.id)).toEqual({ id: draft.id, result: 'deleted', product: null });
    expect(await refusal(products.get(seller, draft.id))).toMatchObject(notFound);
  });

  it('a draft may be archived without going on sale, and nothing goes back to draft', async () => {
    const { products } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const draft = await draftOf(seller);
    expect((await products.update(seller, draft.id, { status: 'archived' })).status).toBe('archived');
    expect(await refusal(products.update(seller, draft.id, { status: 'draft' }))).toMatchObject({
      status: 400,
      code: 'INVALID_TRANSITION',
    });
    // the same status again is no move: the other changes apply
    expect(await products.update(seller, draft.id, { status: 'archived', price: 4.5 })).toMatchObject({
      status: 'archived',
      price: 4.5,
    });
  });

  it('a product whose exclusive license was sold leaves the shop and stays off sale (409) until the sale is refunded', async () => {
    const { products, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, { license_type: 'exclusive' });
    const sale = await servicePaidOrder(suite, buyer, [product]);
    expect((await products.get(seller, product.id)).status).toBe('archived');
    expect(await refusal(products.get(buyer, product.id))).toMatchObject(notFound);
    expect(await refusal(products.update(seller, product.id, { status: 'active' }))).toMatchObject(conflict);
    expect((await products.get(seller, product.id)).status).toBe('archived');
    await orders.refund(seller, sale.id, {});
    expect((await products.get(buyer, product.id)).status).toBe('active');
  });

  it('one license per type (409 CONFLICT for a second); an order without a license named pays the cheapest, else the one named', async () => {
    const { products, orders } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const product = await serviceProduct(suite, seller, {
      price: 50,
      licenses: [
        { license_type: 'commercial', price_cents: 4999 },
        { license_type: 'personal', price_cents: 999 },
      ],
    });
    expect(
      await refusal(products.createLicense(seller, product.id, { license_type: 'personal', price_cents: 100 })),
    ).toMatchObject(conflict);
    expect(await orders.create(buyer, { items: [{ product_id: product.id }] })).toMatchObject({ total_cents: 999 });
    expect(
      await orders.create(buyer, { items: [{ product_id: product.id, license_type: 'commercial' }] }),
    ).toMatchObject({ total_cents: 4999 });
  });

  it('the list filters by price in major units, inclusive; a minimum above the maximum finds nothing', async () => {
    const seller = await serviceUser(suite);
    const viewer = await serviceUser(suite);
    const cheap = await serviceProduct(suite, seller, { title: 'Cheap', price: 5 });
    const mid = await serviceProduct(suite, seller, { title: 'Mid', price: 15 });
    const dear = await serviceProduct(suite, seller, { title: 'Dear', price: 50 });
    expect(await listedBy(viewer, seller, { min_price: 5, max_price: 15 })).toEqual([mid.id, cheap.id]);
    expect(await listedBy(viewer, seller, { min_price: 5.01 })).toEqual([dear.id, mid.id]);
    expect(await listedBy(viewer, seller, { max_price: 14.99 })).toEqual([cheap.id]);
    expect(await listedBy(viewer, seller, { min_price: 20, max_price: 10 })).toEqual([]);
  });
});

describe('reviews (service)', () => {
  it('only a buyer with a completed order reviews, once: a second review replaces the first, and the rating shown follows', async () => {
    const { products, reviews } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const other = await serviceUser(suite);
    const stranger = await serviceUser(suite);
    const product = await serviceProduct(suite, seller);
    expect(await refusal(reviews.upsert(stranger, product.id, { rating: 5 }))).toMatchObject(noLicense);
    expect(await refusal(reviews.upsert(seller, product.id, { rating: 5 }))).toMatchObject(noLicense);
    await serviceOrder(suite, stranger, [product]);
    // a pending order is not a purchase
    expect(await refusal(reviews.upsert(stranger, product.id, { rating: 5 }))).toMatchObject(noLicense);
    await servicePaidOrder(suite, buyer, [product]);
    const first = await reviews.upsert(buyer, product.id, { rating: 2, comment: 'Thin' });
    expect(first).toMatchObject({ created: true, review: { rating: 2, comment: 'Thin', author_id: buyer.id } });
    const second = await reviews.upsert(buyer, product.id, { rating: 5 });
    expect(second).toMatchObject({ created: false, review: { id: first.review.id, rating: 5, comment: null } });
    await servicePaidOrder(suite, other, [product]);
    await reviews.upsert(other, product.id, { rating: 4 });
    expect(await products.get(stranger, product.id)).toMatchObject({ review_count: 2, avg_rating: 4.5 });
    const listed = await reviews.list(anonymousActor(), product.id, 1, 20);
    expect(listed.total).toBe(2);
    expect(listed.reviews.map((review) => review.author_id).sort()).toEqual([buyer.id, other.id].sort());
  });

  it('a review is removed by its author or an admin, not by the seller (403); the rating shown follows', async () => {
    const { products, reviews } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const product = await serviceProduct(suite, seller);
    await servicePaidOrder(suite, buyer, [product]);
    await servicePaidOrder(suite, other, [product]);
    const low = (await reviews.upsert(buyer, product.id, { rating: 1 })).review;
    const high = (await reviews.upsert(other, product.id, { rating: 5 })).review;
    expect(await refusal(reviews.remove(seller, product.id, low.id))).toMatchObject(forbidden);
    expect(await refusal(reviews.remove(other, product.id, low.id))).toMatchObject(forbidden);
    await reviews.remove(buyer, product.id, low.id);
    expect(await products.get(seller, product.id)).toMatchObject({ review_count: 1, avg_rating: 5 });
    await reviews.remove(admin, product.id, high.id);
    expect(await products.get(seller, product.id)).toMatchObject({ review_count: 0, avg_rating: null });
    expect(await refusal(reviews.remove(buyer, product.id, low.id))).toMatchObject(notFound);
  });

  it('the reviews of a product off sale are its seller’s and admins’ to read, like the product: 404 for others; its buyers keep their own review', async () => {
    const { products, reviews } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const stranger = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const product = await serviceProduct(suite, seller);
    await servicePaidOrder(suite, buyer, [product]);
    await reviews.upsert(buyer, product.id, { rating: 3 });
    await products.update(seller, product.id, { status: 'archived' });
    expect(await refusal(products.get(stranger, product.id))).toMatchObject(notFound);
    expect(await refusal(reviews.list(stranger, product.id, 1, 20))).toMatchObject(notFound);
    expect(await refusal(reviews.list(anonymousActor(), product.id, 1, 20))).toMatchObject(notFound);
    expect((await reviews.list(seller, product.id, 1, 20)).total).toBe(1);
    expect((await reviews.list(admin, product.id, 1, 20)).total).toBe(1);
    // what one bought stays one's to review: the buyer changes and takes back their review, a stranger may not write one
    expect((await reviews.upsert(buyer, product.id, { rating: 5 })).created).toBe(false);
    expect(await refusal(reviews.upsert(stranger, product.id, { rating: 1 }))).toMatchObject(notFound);
    const [review] = (await reviews.list(seller, product.id, 1, 20)).reviews;
    expect(review).toMatchObject({ rating: 5 });
    expect(await refusal(reviews.remove(stranger, product.id, review!.id))).toMatchObject(notFound);
    await reviews.remove(buyer, product.id, review!.id);
    expect((await reviews.list(seller, product.id, 1, 20)).total).toBe(0);
  });
});

describe('downloads (service)', () => {
  it('a buyer downloads once the order completes, through a link valid 5 minutes, even after the product leaves the shop; a refund ends it', async () => {
    const { products, orders, downloads } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const track = await serviceTrack(suite, seller, { title: 'Loop', isPublic: false });
    const product = await serviceProduct(suite, seller, { product_type: 'track', track_id: track.id, price: 3 });
    expect(await refusal(downloads.link(buyer, product.id))).toMatchObject(noLicense);
    await serviceOrder(suite, buyer, [product]);
    // a pending order is no license
    expect(await refusal(downloads.link(buyer, product.id))).toMatchObject(noLicense);
    const order = await servicePaidOrder(suite, buyer, [product]);
    await products.update(seller, product.id, { status: 'archived' });
    const link = await downloads.link(buyer, product.id);
    expect(link.filename).toBe('Loop.mp3');
    const expiresIn = new Date(link.expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000 + 1000);
    const signed = signedQuery(link.url);
    const served = await downloads.serve(product.id, signed);
    if (!('body' in served)) throw new Error('local storage serves the file itself');
    expect(served.headers).toMatchObject({ 'Content-Type': 'audio/mpeg', 'Content-Length': String(track.file_size) });
    served.body.destroy();
    await orders.refund(buyer, order.id, {});
    // the link given before the refund stops too
    expect(await refusal(downloads.serve(product.id, signed))).toMatchObject(noLicense);
    expect(await refusal(downloads.link(buyer, product.id))).toMatchObject(noLicense);
  });

  it('a link is its buyer’s own and ends at its expiry: another user’s name or a later expiry on it is 403, as is an expired one', async () => {
    const { downloads } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    const other = await serviceUser(suite);
    const track = await serviceTrack(suite, seller, { title: 'Signed' });
    const product = await serviceProduct(suite, seller, { product_type: 'track', track_id: track.id });
    await servicePaidOrder(suite, buyer, [product]);
    await servicePaidOrder(suite, other, [product]);
    const signed = signedQuery((await downloads.link(buyer, product.id)).url);
    // the other user bought it too: the link still is not theirs
    expect(await refusal(downloads.serve(product.id, { ...signed, user: other.id }))).toMatchObject(forbidden);
    expect(await refusal(downloads.serve(product.id, { ...signed, expires: signed.expires + 3600 }))).toMatchObject(
      forbidden,
    );
    offsetMs = 301_000;
    try {
      expect(await refusal(downloads.serve(product.id, signed))).toMatchObject(forbidden);
    } finally {
      offsetMs = 0;
    }
  });

  it('an unknown product is 404, and a service has nothing to download (404) even for its buyer', async () => {
    const { downloads } = suite.areas.marketplace.services;
    const seller = await serviceUser(suite);
    const buyer = await serviceUser(suite);
    // free, so the order completes at once
    const service = await serviceProduct(suite, seller, { title: 'Mixing session', product_type: 'service', price: 0 });
    expect((await servicePaidOrder(suite, buyer, [service])).status).toBe('completed');
    expect(await refusal(downloads.link(buyer, service.id))).toMatchObject(notFound);
    expect(await refusal(downloads.link(buyer, '00000000-0000-4000-8000-000000000000'))).toMatchObject(notFound);
  });
});

/** The query a signed download URL carries, as the download route reads it. */
function signedQuery(url: string) {
  const params = new URL(url).searchParams;
  return {
    user: params.get('user') ?? '',
    expires: Number(params.get('expires')),
    signature: params.get('signature') ?? '',
  };
}

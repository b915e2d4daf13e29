/**
 * A product's media (ADDENDUM Part 2 "Marketplace"): images re-encoded without metadata, previews cut
 * to 60 s, the deliverable streamed to storage; what deleting a product or an account does to them.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ProductCatalog } from '../../server/src/modules/marketplace/product-catalog.js';
import { ProductsRepository } from '../../server/src/modules/marketplace/products.repository.js';
import { createTrackReader } from '../../server/src/modules/tracks/track-reader.js';
import { TracksRepository } from '../../server/src/modules/tracks/tracks.repository.js';
import { makeAudio } from '../support/audio.js';
import { createTrack, createUser } from '../support/factories.js';
import { probeDuration } from '../support/media.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { createProduct, getBytes, orderProduct, sendFile } from './product-helpers.js';

const suite = useTestServer();
const work = await mkdtemp(path.join(tmpdir(), 'riff-products-media-'));
afterAll(() => rm(work, { recursive: true, force: true }));

const storage = () => suite.server.riff.platform.storage;
const catalog = () => {
  const { scope, config } = suite.server.riff.platform;
  return new ProductCatalog(
    new ProductsRepository(scope),
    createTrackReader(new TracksRepository(scope), config.publicBaseUrl),
  );
};
/** The stored objects under a product's folder (local storage in tests). */
const exists = async (key: string) => (await storage().size(key)) !== undefined;

/** A photo as a phone takes it: JPEG with EXIF, GPS position included. */
function photoWithLocation(): Promise<Buffer> {
  return sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12', Copyright: 'secret-owner-name' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .toBuffer();
}

/** A zip archive's bytes as far as recognising it goes: the local file header, then data. */
const zipLike = (bytes: number) => Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(bytes - 4)]);

/** Gives a product an image (201) and its file (200), as its seller. */
async function giveImageAndFile(token: string, productId: string, photo: Buffer, file: Buffer): Promise<void> {
  const base = `/marketplace/products/${productId}`;
  expect((await sendFile(suite.server, token, 'POST', `${base}/images`, photo, 'p.jpg')).status).toBe(201);
  expect((await sendFile(suite.server, token, 'PUT', `${base}/file`, file, 'p.zip')).status).toBe(200);
}

describe('images', () => {
  it('are re-encoded without EXIF or GPS, served with their type, limited, and removed', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const product = await createProduct(seller);
    const photo = await photoWithLocation();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const added = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/images`,
      photo,
      'holiday.jpg',
    );
    expect(added.status, added.text).toBe(201);
    const image = added.body;
    expect(image).toMatchObject({
      product_id: product.id,
      content_type: 'image/jpeg',
      width: 1200,
      height: 675,
      sort_order: 0,
    });
    expect(image.url).toBe(
      `${suite.server.riff.platform.config.publicBaseUrl}/api/v1/marketplace/products/${product.id}/images/${image.id}`,
    );

    const served = await getBytes(
      `${suite.server.baseUrl}/api/v1/marketplace/products/${product.id}/images/${image.id}`,
      seller.token,
    );
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toBe('private, max-age=0');
    const metadata = await sharp(served.bytes).metadata();
    expect([metadata.format, metadata.exif, metadata.xmp]).toEqual(['jpeg', undefined, undefined]);
    expect(served.bytes.includes('PhoneMaker')).toBe(false);
    expect(served.bytes.includes('secret-owner-name')).toBe(false);

    // a draft's image is its seller's; an active product's is everyone's
    expect(
      (
        await getBytes(
          image.url.replace(suite.server.riff.platform.config.publicBaseUrl, suite.server.baseUrl),
          other.token,
        )
      ).status,
    ).toBe(404);
    expectStatus(
      await seller.api.marketplace.updateProduct({ params: { id: product.id }, body: { status: 'active' } }),
      200,
    );
    const open = await getBytes(`${suite.server.baseUrl}/api/v1/marketplace/products/${product.id}/images/${image.id}`);
    expect([open.status, open.headers.get('cache-control')]).toEqual([200, 'public, max-age=300']);

    const png = await sharp({
      create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const second = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/images`,
      png,
      'alpha.png',
    );
    expect([second.status, second.body.content_type, second.body.sort_order]).toEqual([201, 'image/png', 1]);

    const refused = [
      [
        await sendFile(
          suite.server,
          seller.token,
          'POST',
          `/marketplace/products/${product.id}/images`,
          Buffer.from('not an image at all'),
          'x.jpg',
        ),
        400,
        'INVALID_IMAGE',
      ],
      [
        await sendFile(
          suite.server,
          seller.token,
          'POST',
          `/marketplace/products/${product.id}/images`,
          Buffer.alloc(10 * 1024 * 1024 + 1, 1),
          'big.jpg',
        ),
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      [
        await sendFile(
          suite.server,
          other.token,
          'POST',
          `/marketplace/products/${product.id}/images`,
          photo,
          'mine.jpg',
        ),
        403,
        'FORBIDDEN',
      ],
      [
        await sendFile(
          suite.server,
          undefined,
          'POST',
          `/marketplace/products/${product.id}/images`,
          photo,
          'mine.jpg',
        ),
        401,
        'UNAUTHENTICATED',
      ],
    ] as const;
    for (const [reply, status, code] of refused)
      expect([reply.status, reply.body?.error?.code]).toEqual([status, code]);
    expect(
      expectStatus(await seller.api.marketplace.getProduct({ params: { id: product.id } }), 200).body.images,
    ).toHaveLength(2);

    const small = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'white' } })
      .webp()
      .toBuffer();
    for (let index = 2; index < 10; index += 1) {
      expect(
        (
          await sendFile(
            suite.server,
            seller.token,
            'POST',
            `/marketplace/products/${product.id}/images`,
            small,
            'w.webp',
          )
        ).status,
      ).toBe(201);
    }
    const eleventh = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/images`,
      small,
      'w.webp',
    );
    expect([eleventh.status, eleventh.body.error.code]).toEqual([400, 'LIMIT_REACHED']);

    const key = (
      await suite.server.riff.platform.scope.db
        .selectFrom('product_images')
        .select('storage_key')
        .where('id', '=', image.id)
        .executeTakeFirstOrThrow()
    ).storage_key;
    expect(await exists(key)).toBe(true);
    expect((await other.api.marketplace.removeImage({ params: { id: product.id, imageId: image.id } })).status).toBe(
      403,
    );
    const after = expectStatus(
      await seller.api.marketplace.removeImage({ params: { id: product.id, imageId: image.id } }),
      200,
    ).body;
    expect(after.images.map((row) => row.id)).not.toContain(image.id);
    expect(after.images).toHaveLength(9);
    expect(await exists(key)).toBe(false);
    expect(
      (
        await getBytes(
          `${suite.server.baseUrl}/api/v1/marketplace/products/${product.id}/images/${image.id}`,
          seller.token,
        )
      ).status,
    ).toBe(404);
  });
});

describe('previews', () => {
  it('keep at most the first 60 seconds, as MP3, served with byte ranges', async () => {
    const seller = await createUser(suite.server);
    const product = await createProduct(seller, {}, 'active');
    const long = await makeAudio('wav', { seconds: 75 });
    const added = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/previews`,
      long,
      'full.wav',
    );
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({
      product_id: product.id,
      duration_sec: 60,
      file_path: `/api/v1/marketplace/products/${product.id}/previews/${added.body.id}`,
    });

    const served = await getBytes(`${suite.server.baseUrl}${added.body.file_path}`);
    expect([served.status, served.headers.get('content-type'), served.headers.get('accept-ranges')]).toEqual([
      200,
      'audio/mpeg',
      'bytes',
    ]);
    const file = path.join(work, 'preview.mp3');
    await writeFile(file, served.bytes);
    const duration = await probeDuration(file);
    expect(duration).toBeGreaterThan(59);
    expect(duration).toBeLessThanOrEqual(60.1);

    const part = await getBytes(`${suite.server.baseUrl}${added.body.file_path}`, undefined, { range: 'bytes=0-99' });
    expect([part.status, part.headers.get('content-range'), part.bytes.length]).toEqual([
      206,
      `bytes 0-99/${served.bytes.length}`,
      100,
    ]);
    expect(part.bytes.equals(served.bytes.subarray(0, 100))).toBe(true);
    const beyond = await getBytes(`${suite.server.baseUrl}${added.body.file_path}`, undefined, {
      range: `bytes=${served.bytes.length + 5}-`,
    });
    expect([beyond.status, beyond.headers.get('content-range')]).toEqual([416, `bytes */${served.bytes.length}`]);

    const short = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/previews`,
      await makeAudio('mp3', { seconds: 3 }),
      'short.mp3',
    );
    expect([short.status, short.body.duration_sec]).toEqual([201, 3]);

    const notAudio = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/previews`,
      Buffer.from('hello, not audio'),
      'x.mp3',
    );
    expect([notAudio.status, notAudio.body.error.code]).toEqual([400, 'INVALID_AUDIO']);
    const broken = Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVE'), randomBytes(4000)]);
    const undecodable = await sendFile(
      suite.server,
      seller.token,
      'POST',
      `/marketplace/products/${product.id}/previews`,
      broken,
      'broken.wav',
    );
    expect([undecodable.status, undecodable.body.error.code]).toEqual([400, 'INVALID_AUDIO']);

    const listed = expectStatus(await seller.api.marketplace.getProduct({ params: { id: product.id } }), 200).body
      .previews;
    expect(listed.map((preview) => preview.duration_sec)).toEqual([60, 3]);
    const removed = expectStatus(
      await seller.api.marketplace.removePreview({ params: { id: product.id, previewId: added.body.id } }),
      200,
    ).body;
    expect(removed.previews.map((preview) => preview.id)).toEqual([short.body.id]);
    expect((await getBytes(`${suite.server.baseUrl}${added.body.file_path}`)).status).toBe(404);
    expect(
      (await seller.api.marketplace.removePreview({ params: { id: product.id, previewId: randomUUID() } })).status,
    ).toBe(404);
  });
});

describe('the deliverable file', () => {
  it('is streamed to storage whole, replaces the previous one, and is what the catalogue delivers', async () => {
    const seller = await createUser(suite.server);
    const other = await createUser(suite.server);
    const pack = await createProduct(seller, {}, 'active');
    const bytes = zipLike(6 * 1024 * 1024 + 123);
    const put = await sendFile(
      suite.server,
      seller.token,
      'PUT',
      `/marketplace/products/${pack.id}/file`,
      bytes,
      'Night Drive.zip',
    );
    expect(put.status, put.text).toBe(200);
    expect(put.body.file).toEqual({ filename: 'Night Drive.zip', size: bytes.length, content_type: 'application/zip' });
    const first = (await catalog().deliverable(pack.id))!;
    expect(first).toMatchObject({ filename: 'Night Drive.zip', contentType: 'application/zip', size: bytes.length });
    expect((await buffer(await storage().get(first.storageKey))).equals(bytes)).toBe(true);

    const audio = await makeAudio('flac', { seconds: 1 });
    const replaced = await sendFile(
      suite.server,
      seller.token,
      'PUT',
      `/marketplace/products/${pack.id}/file`,
      audio,
      'master.flac',
    );
    expect(replaced.body.file).toEqual({ filename: 'master.flac', size: audio.length, content_type: 'audio/flac' });
    const second = (await catalog().deliverable(pack.id))!;
    expect((await buffer(await storage().get(second.storageKey))).equals(audio)).toBe(true);
    expect(await exists(first.storageKey)).toBe(false);

    const refused = [
      [
        await sendFile(
          suite.server,
          seller.token,
          'PUT',
          `/marketplace/products/${pack.id}/file`,
          Buffer.from('plain text is no deliverable'),
          'notes.txt',
        ),
        400,
        'VALIDATION_FAILED',
      ],
      [
        await sendFile(suite.server, other.token, 'PUT', `/marketplace/products/${pack.id}/file`, bytes, 'x.zip'),
        403,
        'FORBIDDEN',
      ],
    ] as const;
    for (const [reply, status, code] of refused)
      expect([reply.status, reply.body?.error?.code]).toEqual([status, code]);
    // a refused upload leaves the product and its storage as they were
    expect(
      expectStatus(await seller.api.marketplace.getProduct({ params: { id: pack.id } }), 200).body.file?.filename,
    ).toBe('master.flac');
    const folder = storage().localPath(`products/${pack.id}/file`)!;
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(folder)).toEqual([path.basename(second.storageKey)]);

    const track = await createTrack(suite.server, seller);
    const trackProduct = await createProduct(seller, { product_type: 'track', track_id: track.id });
    const noUpload = await sendFile(
      suite.server,
      seller.token,
      'PUT',
      `/marketplace/products/${trackProduct.id}/file`,
      bytes,
      'x.zip',
    );
    expect([noUpload.status, noUpload.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const delivered = (await catalog().deliverable(trackProduct.id))!;
    expect(delivered).toMatchObject({
      contentType: 'audio/mpeg',
      size: track.file_size,
      filename: `${track.title}.mp3`,
    });
    expect(await exists(delivered.storageKey)).toBe(true);
    expect(await catalog().deliverable(randomUUID())).toBeNull();
    expect(await catalog().deliverable((await createProduct(seller, { product_type: 'service' })).id)).toBeNull();
  });

  it('deleting a product removes its stored files; archiving keeps them', async () => {
    const seller = await createUser(suite.server);
    const buyer = await createUser(suite.server);
    const photo = await photoWithLocation();
    const lonely = await createProduct(seller);
    const sold = await createProduct(seller, {}, 'active');
    for (const product of [lonely, sold]) await giveImageAndFile(seller.token, product.id, photo, zipLike(4096));
    const lonelyFile = (await catalog().deliverable(lonely.id))!.storageKey;
    expectStatus(await seller.api.marketplace.deleteProduct({ params: { id: lonely.id } }), 200);
    expect(await exists(lonelyFile)).toBe(false);
    expect(await storage().size(`products/${lonely.id}`)).toBeUndefined();

    await orderProduct(buyer, sold);
    expect(expectStatus(await seller.api.marketplace.deleteProduct({ params: { id: sold.id } }), 200).body.result).toBe(
      'archived',
    );
    expect(await exists((await catalog().deliverable(sold.id))!.storageKey)).toBe(true);
  });
});

describe('account data', () => {
  it('exports the seller’s products; erasure deletes unsold ones with their files and archives sold ones', async () => {
    const seller = await createUser(suite.server);
    const buyer = await createUser(suite.server);
    const photo = await photoWithLocation();
    const draft = await createProduct(seller, { title: 'Unsold draft' });
    const sold = await createProduct(seller, { title: 'Sold pack' }, 'active');
    for (const product of [draft, sold]) await giveImageAndFile(seller.token, product.id, photo, zipLike(2048));
    const exported = expectStatus(await seller.api.users.exportData(), 200).body;
    expect(exported.marketplace_products.map((product) => [product.title, product.status])).toEqual([
      ['Unsold draft', 'draft'],
      ['Sold pack', 'active'],
    ]);
    expect(expectStatus(await buyer.api.users.exportData(), 200).body.marketplace_products).toEqual([]);
    // each change is in the seller's audit log
    const audited = exported.audit_logs
      .filter((entry) => entry.resource === 'product')
      .map((entry) => [entry.action, entry.resource_id]);
    expect(audited).toEqual(
      expect.arrayContaining([
        ['product.created', draft.id],
        ['product.created', sold.id],
        ['product.updated', sold.id],
      ]),
    );

    await orderProduct(buyer, sold);
    const soldFile = (await catalog().deliverable(sold.id))!.storageKey;
    const soldImage = (
      await suite.server.riff.platform.scope.db
        .selectFrom('product_images')
        .select('storage_key')
        .where('product_id', '=', sold.id)
        .executeTakeFirstOrThrow()
    ).storage_key;
    expectStatus(
      await seller.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: seller.password } }),
      200,
    );

    const db = suite.server.riff.platform.scope.db;
    expect(await db.selectFrom('products').select('id').where('id', '=', draft.id).executeTakeFirst()).toBeUndefined();
    expect(await storage().size(`products/${draft.id}`)).toBeUndefined();
    const kept = await db
      .selectFrom('products')
      .select(['status', 'file_key'])
      .where('id', '=', sold.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ status: 'archived', file_key: soldFile });
    expect(await exists(soldFile)).toBe(true);
    expect(await exists(soldImage)).toBe(false);
    expect(await db.selectFrom('product_images').select('id').where('product_id', '=', sold.id).execute()).toEqual([]);
    expect((await buyer.api.marketplace.getProduct({ params: { id: sold.id } })).status).toBe(404);
  });
});

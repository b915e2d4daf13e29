/**
 * Photos of gear: PNG, JPEG or WebP by content, at most 10 MiB, at most 8 per item,
 * re-encoded without metadata fitted inside 1600 and 320 px, served where the item is visible, their
 * files removed with the photo or the item.
 */
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createGear, createTrack, createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

/** A photo as a phone sends it: EXIF with the camera's make and model. */
const jpeg = (width = 2000, height = 1500) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9', Software: 'riff-test' } })
    .toBuffer();
const png = () =>
  sharp({ create: { width: 400, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } })
    .png()
    .withMetadata({ exif: { IFD0: { Make: 'PhoneCo' } } })
    .toBuffer();
const webp = () =>
  sharp({ create: { width: 1800, height: 900, channels: 3, background: { r: 10, g: 120, b: 60 } } })
    .webp()
    .withExif({ IFD0: { Make: 'PhoneCo' } })
    .toBuffer();

async function storedFiles(userId: string): Promise<string[]> {
  const folder = suite.server.riff.storage.localPath(`gear/${userId}`)!;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

async function fetched(url: string, token?: string) {
  const reply = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return {
    status: reply.status,
    type: reply.headers.get('content-type'),
    bytes: Buffer.from(await reply.arrayBuffer()),
  };
}

describe('gear photos', () => {
  it('stores JPEG, PNG and WebP re-encoded without metadata in two sizes, and serves them where the item is', async () => {
    const owner = await createUser(suite.server);
    const item = await createGear(suite.server, owner);
    const cases = [
      { bytes: await jpeg(), name: 'front.jpg', type: 'image/jpeg', large: [1600, 1200], small: [320, 240] },
      { bytes: await png(), name: 'back.png', type: 'image/png', large: [400, 300], small: [320, 240] },
      { bytes: await webp(), name: 'side.webp', type: 'image/jpeg', large: [1600, 800], small: [320, 160] },
    ];
    let gear = item;
    for (const [index, photo] of cases.entries()) {
      gear = expectStatus(
        await owner.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(photo.bytes, photo.name) } }),
        201,
      ).body.data.gear;
      expect(gear.photos).toHaveLength(index + 1);
      const added = gear.photos[index]!;
      expect(added.url).toMatch(new RegExp(`^https?://.+/api/v1/gear/${item.id}/photos/${added.id}$`));
      expect(added.thumbnail_url).toBe(`${added.url}?size=320`);
      for (const [url, size] of [
        [added.url, photo.large],
        [added.thumbnail_url, photo.small],
      ] as const) {
        const served = await fetched(url.replace(/^https?:\/\/[^/]+/, suite.server.baseUrl));
        expect(served.status).toBe(200);
        expect(served.type).toBe(photo.type);
        const meta = await sharp(served.bytes).metadata();
        expect([meta.width, meta.height]).toEqual(size);
        expect(meta.exif).toBeUndefined();
        expect(meta.icc).toBeUndefined();
      }
    }
    expect(await storedFiles(owner.id)).toHaveLength(6);
    // the photos of a private item are its owner's
    expectStatus(await owner.api.gear.update({ params: { id: item.id }, body: { is_public: false } }), 200);
    const other = await createUser(suite.server);
    const first = gear.photos[0]!;
    expect((await fetched(first.url.replace(/^https?:\/\/[^/]+/, suite.server.baseUrl), other.token)).status).toBe(404);
    expect((await fetched(first.url.replace(/^https?:\/\/[^/]+/, suite.server.baseUrl), owner.token)).status).toBe(200);

    // deleting a photo removes its files; deleting the item removes the rest
    const left = expectStatus(await owner.api.gear.removePhoto({ params: { id: item.id, photoId: first.id } }), 200)
      .body.data.gear;
    expect(left.photos.map((photo) => photo.id)).toEqual(gear.photos.slice(1).map((photo) => photo.id));
    expect(await storedFiles(owner.id)).toHaveLength(4);
    expectStatus(await owner.api.gear.removePhoto({ params: { id: item.id, photoId: first.id } }), 404);
    expectStatus(await owner.api.gear.remove({ params: { id: item.id } }), 200);
    expect(await storedFiles(owner.id)).toEqual([]);
  });

  it('refuses what is not an image (400 INVALID_IMAGE), over 10 MiB (413), a 9th photo (400 LIMIT_REACHED), leaving nothing behind', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const item = await createGear(suite.server, owner);
    const notImage = expectStatus(
      await owner.api.gear.addPhoto({
        params: { id: item.id },
        body: { file: fileOf(Buffer.from('GIF89a pretending to be a png'), 'fake.png') },
      }),
      400,
    );
    expect(notImage.body.error.code).toBe('INVALID_IMAGE');
    const huge = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    const tooLarge = expectStatus(
      await owner.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(huge, 'huge.jpg') } }),
      413,
    );
    expect(tooLarge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await storedFiles(owner.id)).toEqual([]);

    // another user: 403 on a public item of someone else's
    const small = await jpeg(200, 100);
    expectStatus(
      await other.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(small, 'a.jpg') } }),
      403,
    );

    for (let i = 0; i < 8; i++) {
      expectStatus(
        await owner.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(small, 'a.jpg') } }),
        201,
      );
    }
    const ninth = expectStatus(
      await owner.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(small, 'a.jpg') } }),
      400,
    );
    expect(ninth.body.error.code).toBe('LIMIT_REACHED');
    expect(await storedFiles(owner.id)).toHaveLength(16);
    const photos = expectStatus(await owner.api.gear.get({ params: { id: item.id } }), 200).body.data.gear.photos;
    expectStatus(await other.api.gear.removePhoto({ params: { id: item.id, photoId: photos[0]!.id } }), 403);
  });

  it('deleting the account removes its items’ photo files', async () => {
    const owner = await createUser(suite.server);
    const item = await createGear(suite.server, owner);
    const track = await createTrack(suite.server, owner);
    expectStatus(
      await owner.api.gear.addPhoto({ params: { id: item.id }, body: { file: fileOf(await jpeg(300, 200), 'a.jpg') } }),
      201,
    );
    expectStatus(await owner.api.gear.setTrackGear({ params: { id: track.id }, body: { gear_ids: [item.id] } }), 200);
    expect(await storedFiles(owner.id)).toHaveLength(2);
    expectStatus(
      await owner.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: owner.password } }),
      200,
    );
    expect(await storedFiles(owner.id)).toEqual([]);
  });
});

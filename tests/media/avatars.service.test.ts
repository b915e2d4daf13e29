import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of avatars, called on the services with an Actor: what is stored of an image, what is
// refused, and that an avatar replaced or removed leaves no file behind. avatar-api.test.ts holds
// the routes (the upload form, the sizes served over HTTP, the account's deletion).
const suite = useServices();
const invalidImage = { status: 400, code: 'INVALID_IMAGE' };

/** A JPEG of one colour carrying EXIF (camera and software), as a phone would send it. */
const photo = (background: { r: number; g: number; b: number }, width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9', Software: 'riff-test' } })
    .toBuffer();
const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 30, b: 220 };

/** The avatar as served at `size`: its type, dimensions, metadata and average colour. */
async function served(userId: string, size: 128 | 512) {
  const { body, contentType } = await suite.areas.media.avatars.avatar(userId, size);
  const bytes = await buffer(body);
  const meta = await sharp(bytes).metadata();
  const { channels } = await sharp(bytes).stats();
  return {
    contentType,
    width: meta.width,
    height: meta.height,
    exif: meta.exif,
    hasAlpha: meta.hasAlpha,
    colour: channels.slice(0, 3).map((channel) => Math.round(channel.mean / 10) * 10),
  };
}

/** The files stored for the user's avatar. */
async function avatarFiles(userId: string): Promise<string[]> {
  const folder = suite.platform.storage.localPath(`avatars/${userId}`)!;
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

describe('avatars (service)', () => {
  it('an avatar fitted for players (avatarImage) is made once beside the large one and goes when the avatar is replaced or removed', async () => {
    const { profiles } = suite.areas.users.services;
    const { avatars } = suite.areas.media;
    const user = await serviceUser(suite);
    await profiles.setAvatar(user, await photo(RED));
    const sized = await avatars.avatarImage(user.id, 64);
    const { body } = await sized.read();
    expect((await sharp(await buffer(body)).metadata()).width).toBe(64);
    expect((await avatars.avatarImage(user.id, 64)).etag).toBe(sized.etag);
    // 128 and 512 are the squares stored already
    expect((await avatars.avatarImage(user.id, 128)).etag).not.toBe(sized.etag);
    expect(await avatarFiles(user.id)).toHaveLength(3);

    await profiles.setAvatar(user, await photo(BLUE));
    expect(await avatarFiles(user.id)).toHaveLength(2);
    await avatars.avatarImage(user.id, 64);
    expect(await avatarFiles(user.id)).toHaveLength(3);
    await profiles.removeAvatar(user);
    expect(await avatarFiles(user.id)).toEqual([]);
    expect(await refusal(avatars.avatarImage(user.id, 64))).toMatchObject({ status: 404 });
  });

  it('an avatar is stored as centred squares of 512 and 128 without the photo’s metadata; the profile points at it', async () => {
    const { profiles } = suite.areas.users.services;
    const user = await serviceUser(suite);
    const other = await serviceUser(suite);
    // a wide photo, red at the sides and blue in its centre square: the square kept is the blue one
    const centre = await sharp({ create: { width: 400, height: 400, channels: 3, background: BLUE } })
      .png()
      .toBuffer();
    const wide = await sharp(await photo(RED, 1200, 400))
      .composite([{ input: centre, left: 400, top: 0 }])
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9' } })
      .jpeg()
      .toBuffer();
    expect((await sharp(wide).metadata()).exif).toBeDefined();
    const { profile } = await profiles.setAvatar(user, wide);
    expect(profile.avatar).toBe(`${suite.platform.config.publicBaseUrl}/api/v1/users/${user.id}/avatar`);
    for (const size of [512, 128] as const) {
      expect(await served(user.id, size)).toEqual({
        contentType: 'image/jpeg',
        width: size,
        height: size,
        exif: undefined,
        hasAlpha: false,
        colour: [30, 30, 220],
      });
    }
    // another user reads it where the profile is visible
    const { contentType } = await profiles.avatar(other, user.id, 128);
    expect(contentType).toBe('image/jpeg');
    expect(await avatarFiles(user.id)).toHaveLength(2);
  });

  it('an image with transparency stays a PNG, so its transparent parts stay transparent', async () => {
    const { profiles } = suite.areas.users.services;
    const user = await serviceUser(suite);
    const translucent = await sharp({
      create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 200, b: 0, alpha: 0.25 } },
    })
      .webp()
      .toBuffer();
    await profiles.setAvatar(user, translucent);
    expect(await served(user.id, 512)).toMatchObject({ contentType: 'image/png', width: 512, hasAlpha: true });
  });

  it('what is not a PNG, JPEG or WebP image, or is over 10 MiB, is 400 INVALID_IMAGE and the avatar stays as it was', async () => {
    const { profiles } = suite.areas.users.services;
    const user = await serviceUser(suite);
    await profiles.setAvatar(user, await photo(RED));
    const before = await served(user.id, 128);
    const files = await avatarFiles(user.id);
    const gif = await sharp({ create: { width: 64, height: 64, channels: 3, background: BLUE } })
      .gif()
      .toBuffer();
    const oversized = Buffer.concat([await photo(BLUE), Buffer.alloc(10 * 1024 * 1024)]);
    for (const refused of [Buffer.from('not a picture at all'), gif, oversized, Buffer.alloc(0)])
      expect(await refusal(profiles.setAvatar(user, refused))).toMatchObject(invalidImage);
    expect((await profiles.get(user, 'me')).profile.avatar).toMatch(/\/api\/v1\/users\/.+\/avatar$/);
    expect(await served(user.id, 128)).toEqual(before);
    expect(await avatarFiles(user.id)).toEqual(files);
  });

  it('a new avatar replaces the old one’s files; removing it removes both sizes, and the profile shows none', async () => {
    const { profiles } = suite.areas.users.services;
    const { avatars } = suite.areas.media;
    const user = await serviceUser(suite);
    await profiles.setAvatar(user, await photo(RED));
    const first = await avatarFiles(user.id);
    expect((await served(user.id, 512)).colour).toEqual([220, 30, 30]);

    await profiles.setAvatar(user, await photo(BLUE));
    const second = await avatarFiles(user.id);
    expect(second).toHaveLength(2);
    expect(second.filter((file) => first.includes(file))).toEqual([]);
    expect((await served(user.id, 512)).colour).toEqual([30, 30, 220]);

    expect((await profiles.removeAvatar(user)).profile.avatar).toBeNull();
    expect(await avatarFiles(user.id)).toEqual([]);
    expect(await refusal(avatars.avatar(user.id, 512))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    // removing it again: there was none
    expect(await avatars.removeAvatar(user)).toBe(false);
  });
});

/**
 * Avatars through the API (ADDENDUM "Media pipeline"): PUT /users/me/avatar re-encodes the image
 * without its metadata in two sizes, GET /users/{id}/avatar serves them, DELETE removes them.
 */
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';

const suite = useTestServer();

/** A JPEG carrying EXIF (camera and orientation), as a phone would send it. */
const photo = () =>
  sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Pocket 9', Software: 'riff-test' } })
    .toBuffer();

const fileOf = (bytes: Buffer, name: string) => new File([new Uint8Array(bytes)], name);

describe('avatars', () => {
  it('PUT sets the avatar (a square of each size, no metadata); the profile reaches 100 % completion; DELETE removes it', async () => {
    const user = await createUser(suite.server);
    expectStatus(
      await user.api.users.update({
        params: { id: 'me' },
        body: {
          first_name: 'Mira',
          last_name: 'Lane',
          bio: 'Synths',
          location: 'Leeds',
          birthdate: '1994-05-17',
          gender: 'Female',
          banner_url: 'https://example.org/banner.jpg',
          social_links: { bandcamp: 'https://miralane.bandcamp.com' },
        },
      }),
      200,
    );
    const before = expectStatus(await user.api.users.completion({ params: { id: 'me' } }), 200).body.data;
    expect(before.missing_fields).toEqual(['avatar']);

    const profile = expectStatus(
      await user.api.users.setAvatar({ body: { file: fileOf(await photo(), 'me.jpg') } }),
      200,
    ).body.data.profile;
    expect(profile.avatar).toMatch(new RegExp(`^https?://.+/api/v1/users/${user.id}/avatar$`));
    expect(expectStatus(await user.api.users.completion({ params: { id: 'me' } }), 200).body.data.percentage).toBe(100);

    for (const size of [512, 128] as const) {
      const reply = await fetch(`${suite.server.baseUrl}/api/v1/users/${user.id}/avatar?size=${size}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await reply.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([size, size]);
      expect(meta.exif).toBeUndefined();
    }
    // another user sees it where the profile is visible
    const other = await createUser(suite.server);
    expect(
      (
        await fetch(`${suite.server.baseUrl}/api/v1/users/${user.id}/avatar`, {
          headers: { authorization: `Bearer ${other.token}` },
        })
      ).status,
    ).toBe(200);

    const removed = expectStatus(await user.api.users.removeAvatar(), 200).body.data.profile;
    expect(removed.avatar).toBeNull();
    expect(
      expectStatus(await suite.api.users.avatar({ params: { id: user.id }, query: {} }), 404).body.error.code,
    ).toBe('NOT_FOUND');
  });

  it('deleting the account removes the avatar’s files', async () => {
    const user = await createUser(suite.server);
    expectStatus(await user.api.users.setAvatar({ body: { file: fileOf(await photo(), 'me.jpg') } }), 200);
    const folder = suite.server.riff.storage.localPath(`avatars/${user.id}`)!;
    expect(
      (await readdir(folder, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()),
    ).toHaveLength(2);
    expectStatus(
      await user.api.users.deleteAccount({ body: { confirm_text: 'DELETE', password: user.password } }),
      200,
    );
    const left = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
    expect(left.filter((entry) => entry.isFile())).toEqual([]);
  });

  it('refuses what is not an image with 400 INVALID_IMAGE and leaves the avatar as it was', async () => {
    const user = await createUser(suite.server);
    const refused = expectStatus(
      await user.api.users.setAvatar({ body: { file: fileOf(Buffer.from('not a picture at all'), 'me.png') } }),
      400,
    );
    expect(refused.body.error.code).toBe('INVALID_IMAGE');
    const profile = expectStatus(await user.api.users.get({ params: { id: 'me' } }), 200).body.data.profile;
    expect(profile.avatar).toBeNull();
  });
});

import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AvatarSize } from '@riff/contract';
import type { Logger } from 'pino';
import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { scaledImage, scaledPrefix, servedImage, type ServedImage } from './image-sizes.js';
import { ImageError, processAvatar } from './images.js';
import { mediaKeys, mediaPaths } from './media-keys.js';
import type { MediaRepository } from './media.repository.js';
import { committing, removeFiles } from './stored-files.js';

export interface AvatarsServiceDeps {
  scope: DbScope;
  avatars: Pick<MediaRepository, 'setAvatar' | 'removeAvatar' | 'avatar'>;
  storage: ObjectStorage;
  logger: Logger;
  /** The profile's `avatar` is an absolute URL. */
  publicBaseUrl: string;
}

/**
 * Avatars: both sizes of a user's image, stored and served. Who may see a profile (and so its
 * avatar) is the users area's to decide before it asks here.
 */
export class AvatarsService {
  constructor(private readonly deps: AvatarsServiceDeps) {}

  /** PUT /users/me/avatar: both sizes stored; returns the absolute URL for the profile's `avatar`. */
  async setAvatar(actor: UserActor, bytes: Buffer): Promise<{ url: string }> {
    const stored = await this.storeImage(actor.id, bytes);
    try {
      await committing(this.deps.scope, async (later) => {
        const before = await this.deps.avatars.setAvatar({ user_id: actor.id, ...stored });
        if (before) later(() => this.removeFiles([before.large_key, before.small_key]));
      });
    } catch (error) {
      await this.removeFiles([stored.large_key, stored.small_key]);
      throw error;
    }
    return { url: this.avatarUrl(actor.id) };
  }

  /**
   * An avatar's two sizes (512 and 128, re-encoded without metadata) stored under its owner's id: a
   * user's here, or another area's item that keeps the keys itself (a group's avatar). Not an
   * image: 400 INVALID_IMAGE. The caller records the keys, and removes them with discardImages.
   */
  async storeImage(
    ownerId: string,
    bytes: Buffer,
  ): Promise<{ large_key: string; small_key: string; content_type: string }> {
    let sizes;
    try {
      sizes = await processAvatar(bytes);
    } catch (error) {
      if (error instanceof ImageError) throw new AppError('INVALID_IMAGE', error.message);
      throw error;
    }
    const imageId = randomUUID();
    const large = mediaKeys.avatar(ownerId, imageId, 512);
    const small = mediaKeys.avatar(ownerId, imageId, 128);
    await this.deps.storage.put(large, Readable.from([sizes[512].data]), { contentType: sizes[512].contentType });
    await this.deps.storage.put(small, Readable.from([sizes[128].data]), { contentType: sizes[128].contentType });
    return { large_key: large, small_key: small, content_type: sizes[512].contentType };
  }

  /** One stored image of storeImage, to serve. */
  openImage(key: string): Promise<Readable> {
    return this.deps.storage.get(key);
  }

  /** Removes images of storeImage (after the change that stopped naming them committed). */
  discardImages(keys: string[]): Promise<void> {
    return this.removeFiles(keys);
  }

  avatarUrl(userId: string): string {
    return `${this.deps.publicBaseUrl}${mediaPaths.avatar(userId)}`;
  }

  /** DELETE /users/me/avatar: whether there was one. */
  async removeAvatar(actor: UserActor): Promise<boolean> {
    return committing(this.deps.scope, async (later) => {
      const before = await this.deps.avatars.removeAvatar(actor.id);
      if (before) later(() => this.removeFiles([before.large_key, before.small_key]));
      return before !== undefined;
    });
  }

  /** GET /users/{id}/avatar?size=: who may see the profile is the users module's to decide first. */
  async avatar(userId: string, size: AvatarSize): Promise<{ body: Readable; contentType: string }> {
    const avatar = await this.deps.avatars.avatar(userId);
    if (!avatar) throw notFound('Avatar');
    return {
      body: await this.deps.storage.get(size === 128 ? avatar.small_key : avatar.large_key),
      contentType: avatar.content_type,
    };
  }

  /**
   * A user's avatar for players (the Subsonic interface's getAvatar and an artist's cover art): the
   * larger one stored, or fitted inside side×side (the small one when it is exactly that), other
   * sides made once and kept beside it. Who may see the profile is the caller's to decide first.
   */
  async avatarImage(userId: string, side?: number): Promise<ServedImage> {
    const avatar = await this.deps.avatars.avatar(userId);
    if (!avatar) throw notFound('Avatar');
    const large = { key: avatar.large_key, contentType: avatar.content_type };
    if (side === undefined || side >= 512) return servedImage(this.deps.storage, large);
    if (side === 128) return servedImage(this.deps.storage, { ...large, key: avatar.small_key });
    return servedImage(this.deps.storage, await scaledImage(this.deps.storage, large, side));
  }

  /** The account's part the media module holds itself: the avatar (tracks go through track.deleted). */
  async eraseFor(owner: UserActor) {
    return { removed_avatars: (await this.removeAvatar(owner)) ? 1 : 0 };
  }

  private async removeFiles(keys: string[]): Promise<void> {
    // with each image go the sides made of it for players (avatarImage; only the large one has any)
    for (const key of keys) await this.deps.storage.deletePrefix(scaledPrefix(key)).catch(() => undefined);
    return removeFiles(this.deps.storage, this.deps.logger, keys);
  }
}

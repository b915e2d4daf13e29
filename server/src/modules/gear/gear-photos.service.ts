import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { GEAR_PHOTO_SIZES, GEAR_PHOTOS_MAX, type Gear, type GearPhotoSize } from '@riff/contract';
import type { Logger } from 'pino';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { EncodedImage } from '../media/images.js';
import { committing, removeFiles } from '../media/stored-files.js';
import type { GearReads } from './gear-reads.js';
import { canAddGearPhoto, canEditGear } from './gear.policy.js';
import type { GearRepository } from './gear.repository.js';
import type { GearRow } from './gear.tables.js';

export interface GearPhotosServiceDeps {
  scope: DbScope;
  events: EventBus;
  gear: GearRepository;
  reads: GearReads;
  /** The media area's image pipeline: PNG/JPEG/WebP by content, re-encoded without metadata (400 INVALID_IMAGE otherwise). */
  photoSizes(bytes: Buffer, sides: readonly number[]): Promise<EncodedImage[]>;
  storage: ObjectStorage;
  logger: Logger;
}

/** Where a photo's two sizes are stored. */
const photoKey = (userId: string, gearId: string, photoId: string, side: GearPhotoSize) =>
  `gear/${userId}/${gearId}/${photoId}/${side}`;

/** Photos of items: at most GEAR_PHOTOS_MAX each, stored in both sizes, served where the item is visible. */
export class GearPhotosService {
  constructor(private readonly deps: GearPhotosServiceDeps) {}

  /** 404 when the caller may not see the item, 403 when it is not theirs. */
  async assertMayAdd(actor: UserActor, gearId: string): Promise<GearRow> {
    const item = await this.deps.reads.visible(actor, gearId);
    if (!canAddGearPhoto(actor, item)) throw forbidden('Only the owner may add photos to this item');
    return item;
  }

  async add(actor: UserActor, gearId: string, bytes: Buffer): Promise<Gear> {
    const { scope, gear, reads, storage } = this.deps;
    const item = await this.assertMayAdd(actor, gearId);
    const [large, small] = await this.deps.photoSizes(bytes, GEAR_PHOTO_SIZES);
    const photoId = randomUUID();
    const keys = [photoKey(item.user_id, gearId, photoId, 1600), photoKey(item.user_id, gearId, photoId, 320)];
    await storage.put(keys[0]!, Readable.from([large!.data]), { contentType: large!.contentType });
    await storage.put(keys[1]!, Readable.from([small!.data]), { contentType: small!.contentType });
    try {
      return await scope.transaction(async () => {
        // the item's row is held until commit, so the per-item cap holds under parallel uploads
        const locked = await gear.lock(gearId);
        if (!locked) throw notFound('Gear');
        const photos = (await gear.photosOf([gearId])).get(gearId) ?? [];
        if (photos.length >= GEAR_PHOTOS_MAX) throw limitReached(`An item may have at most ${GEAR_PHOTOS_MAX} photos`);
        await gear.insertPhoto({
          id: photoId,
          gear_id: gearId,
          large_key: keys[0]!,
          small_key: keys[1]!,
          content_type: large!.contentType,
        });
        await gear.touch(gearId);
        await this.deps.events.record(actor, 'gear.updated', {
          subject: { resource: 'gear', id: gearId },
          data: { fields: ['photos'] },
        });
        return reads.dto((await gear.find(gearId))!);
      });
    } catch (error) {
      // a refused or failed upload leaves nothing behind
      await removeFiles(storage, this.deps.logger, keys);
      throw error;
    }
  }

  async remove(actor: UserActor, gearId: string, photoId: string): Promise<Gear> {
    const { gear, reads } = this.deps;
    return committing(this.deps.scope, async (later) => {
      const item = await reads.visible(actor, gearId);
      const photo = await gear.findPhoto(gearId, photoId);
      if (!photo) throw notFound('Photo');
      if (!canEditGear(actor, item)) throw forbidden('Only the owner may remove photos of this item');
      await gear.deletePhoto(photoId);
      await gear.touch(gearId);
      later(() => removeFiles(this.deps.storage, this.deps.logger, [photo.large_key, photo.small_key]));
      await this.deps.events.record(actor, 'gear.updated', {
        subject: { resource: 'gear', id: gearId },
        data: { fields: ['photos'] },
        userId: item.user_id,
      });
      return reads.dto((await gear.find(gearId))!);
    });
  }

  /** GET /gear/{id}/photos/{photoId}: where the item is visible. */
  async photo(actor: Actor, gearId: string, photoId: string, size: GearPhotoSize) {
    await this.deps.reads.visible(actor, gearId);
    const photo = await this.deps.gear.findPhoto(gearId, photoId);
    if (!photo) throw notFound('Photo');
    return {
      body: await this.deps.storage.get(size === 320 ? photo.small_key : photo.large_key),
      contentType: photo.content_type,
    };
  }
}

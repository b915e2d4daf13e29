import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  PRODUCT_FILE_MAX_BYTES,
  PRODUCT_IMAGE_MAX_BYTES,
  PRODUCT_IMAGES_MAX,
  PRODUCT_PREVIEW_UPLOAD_MAX_BYTES,
  PRODUCT_PREVIEWS_MAX,
  type Product,
  type ProductImage,
  type ProductPreview,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { AppError, fieldIssue, limitReached, notFound, validationFailed } from '../../platform/errors/app-error.js';
import type { ByteRange } from '../../platform/storage/object-storage.js';
import { ImageError, processCover } from '../media/images.js';
import type { Logger } from 'pino';
import type { DbScope } from '../../platform/db/transactions.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { cutPreview, deliverableType, displayName, receiveAudio, sniffingCounter } from './product-files.js';
import { toImageDto, toPreviewDto } from './products.mapper.js';
import type { ProductsRepository } from './products.repository.js';
import { withinLimit } from '../../platform/rate-limit/within-limit.js';
import { productFolder, type ProductsService } from './products.service.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';

/**
 * Reads the one file of a multipart form: `onFile` gets the file as a stream (it must start consuming
 * it at once) and the form's end is awaited. The routes build it from the request.
 */
export type FileReceiver = <T>(
  maxBytes: number,
  onFile: (file: Readable, info: { filename: string }) => Promise<T>,
) => Promise<T>;

/** A stored file to serve. */
export interface ServedFile {
  body: Readable;
  contentType: string;
  size: number;
  /** Whether anyone may see it (the product is active): shared caches may keep it. */
  isPublic: boolean;
}

const imageKey = (productId: string, imageId: string, contentType: string) =>
  `${productFolder(productId)}images/${imageId}.${contentType === 'image/png' ? 'png' : 'jpg'}`;
const previewKey = (productId: string, previewId: string) => `${productFolder(productId)}previews/${previewId}.mp3`;
const fileKey = (productId: string, extension: string) =>
  `${productFolder(productId)}file/${randomUUID()}.${extension}`;

export interface ProductMediaServiceDeps {
  scope: DbScope;
  storage: ObjectStorage;
  logger: Logger;
  products: ProductsRepository;
  /** Who may edit a product, and the product as the reply shows it. */
  catalog: ProductsService;
  /** How many uploads a seller may make in a window. */
  uploads: Limiter;
  publicBaseUrl: string;
  /** Previews are cut with ffmpeg. */
  ffmpegPath: string;
}

/** A product's images, previews and deliverable file: stored, served, removed. */
/** The refusal of the product media uploads' limit. */
const uploadsRefusal = (limit: number) => `At most ${limit} uploads a minute: try again later`;

export class ProductMediaService {
  constructor(private readonly deps: ProductMediaServiceDeps) {}

  private get storage() {
    return this.deps.storage;
  }

  private get products() {
    return this.deps.products;
  }

  private get catalog() {
    return this.deps.catalog;
  }

  private get uploads() {
    return this.deps.uploads;
  }

  /** Removes stored objects; a failure is logged, not thrown (the rows are already right). */
  private async removeObjects(keys: string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.storage
          .delete(key)
          .catch((error: unknown) => this.deps.logger.warn({ err: error, key }, 'could not delete a product file')),
      ),
    );
  }

  /** 404/403 before an upload is read, so no byte of it is stored for a caller who may not. */
  async assertEditable(actor: UserActor, id: string) {
    return this.catalog.editable(actor, id);
  }

  addImage(actor: UserActor, id: string, receive: FileReceiver): Promise<ProductImage> {
    return withinLimit(this.uploads, actor.id, uploadsRefusal, () => this.addImageNow(actor, id, receive));
  }

  private async addImageNow(actor: UserActor, id: string, receive: FileReceiver): Promise<ProductImage> {
    await this.assertEditable(actor, id);
    const bytes = await receive(PRODUCT_IMAGE_MAX_BYTES, async (file) => Buffer.concat(await file.toArray()));
    let image;
    try {
      image = await processCover(bytes);
    } catch (error) {
      if (error instanceof ImageError) throw new AppError('INVALID_IMAGE', error.message);
      throw error;
    }
    const imageId = randomUUID();
    const key = imageKey(id, imageId, image.contentType);
    await this.storage.put(key, Readable.from([image.data]), { contentType: image.contentType });
    try {
      return await this.deps.scope.transaction(async () => {
        await this.catalog.editable(actor, id);
        const { count, nextOrder } = await this.products.imageStats(id);
        if (count >= PRODUCT_IMAGES_MAX) throw limitReached(`A product has at most ${PRODUCT_IMAGES_MAX} images`);
        const row = await this.products.insertImage({
          id: imageId,
          product_id: id,
          storage_key: key,
          content_type: image.contentType,
          width: image.width,
          height: image.height,
          byte_size: image.data.length,
          sort_order: nextOrder,
        });
        await this.products.update(id, {});
        return toImageDto(row, this.deps.publicBaseUrl);
      });
    } catch (error) {
      await this.removeObjects([key]);
      throw error;
    }
  }

  async removeImage(actor: UserActor, id: string, imageId: string): Promise<Product> {
    return this.deps.scope.transaction(async () => {
      await this.catalog.editable(actor, id);
      const image = await this.products.findImage(id, imageId);
      if (!image) throw notFound('Image');
      await this.products.deleteImage(image.id);
      this.deps.scope.afterCommit(() => this.removeObjects([image.storage_key]));
      return this.catalog.reply(await this.products.update(id, {}));
    });
  }

  async image(actor: Actor, id: string, imageId: string): Promise<ServedFile> {
    const product = await this.catalog.visible(actor, id);
    const image = await this.products.findImage(id, imageId);
    if (!image) throw notFound('Image');
    return {
      body: await this.storage.get(image.storage_key),
      contentType: image.content_type,
      size: image.byte_size,
      isPublic: product.status === 'active',
    };
  }

  addPreview(actor: UserActor, id: string, receive: FileReceiver): Promise<ProductPreview> {
    return withinLimit(this.uploads, actor.id, uploadsRefusal, () => this.addPreviewNow(actor, id, receive));
  }

  private async addPreviewNow(actor: UserActor, id: string, receive: FileReceiver): Promise<ProductPreview> {
    await this.assertEditable(actor, id);
    const work = await mkdtemp(path.join(tmpdir(), 'riff-preview-'));
    const previewId = randomUUID();
    const key = previewKey(id, previewId);
    let stored = false;
    try {
      const source = path.join(work, 'upload');
      await receive(PRODUCT_PREVIEW_UPLOAD_MAX_BYTES, (file) => receiveAudio(file, source));
      const output = path.join(work, 'preview.mp3');
      const duration = await cutPreview(this.deps.ffmpegPath, source, output);
      const size = (await stat(output)).size;
      await this.storage.put(key, createReadStream(output), { contentType: 'audio/mpeg' });
      stored = true;
      return await this.deps.scope.transaction(async () => {
        await this.catalog.editable(actor, id);
        if ((await this.products.previewCount(id)) >= PRODUCT_PREVIEWS_MAX) {
          throw limitReached(`A product has at most ${PRODUCT_PREVIEWS_MAX} previews`);
        }
        const row = await this.products.insertPreview({
          id: previewId,
          product_id: id,
          storage_key: key,
          content_type: 'audio/mpeg',
          byte_size: size,
          duration_sec: duration,
        });
        await this.products.update(id, {});
        return toPreviewDto(row, this.deps.publicBaseUrl);
      });
    } catch (error) {
      if (stored) await this.removeObjects([key]);
      throw error;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  async removePreview(actor: UserActor, id: string, previewId: string): Promise<Product> {
    return this.deps.scope.transaction(async () => {
      await this.catalog.editable(actor, id);
      const preview = await this.products.findPreview(id, previewId);
      if (!preview) throw notFound('Preview');
      await this.products.deletePreview(preview.id);
      this.deps.scope.afterCommit(() => this.removeObjects([preview.storage_key]));
      return this.catalog.reply(await this.products.update(id, {}));
    });
  }

  /** The preview's size first (to resolve a Range), then its bytes. */
  async preview(actor: Actor, id: string, previewId: string) {
    const product = await this.catalog.visible(actor, id);
    const preview = await this.products.findPreview(id, previewId);
    if (!preview) throw notFound('Preview');
    return {
      size: Number(preview.byte_size),
      contentType: preview.content_type,
      isPublic: product.status === 'active',
      etag: `"${preview.id}"`,
      open: (range?: ByteRange) => this.storage.get(preview.storage_key, range),
    };
  }

  /** The deliverable of a pack or service: streamed to storage as it arrives, never held whole. */
  putFile(actor: UserActor, id: string, receive: FileReceiver): Promise<Product> {
    return withinLimit(this.uploads, actor.id, uploadsRefusal, () => this.putFileNow(actor, id, receive));
  }

  private async putFileNow(actor: UserActor, id: string, receive: FileReceiver): Promise<Product> {
    const product = await this.assertEditable(actor, id);
    if (product.product_type === 'track') {
      throw validationFailed('A track product delivers its track’s original: there is no file to upload', [
        fieldIssue('file', 'not for a track product'),
      ]);
    }
    const keys: string[] = [];
    try {
      const received = await receive(PRODUCT_FILE_MAX_BYTES, async (file, info) => {
        const counter = sniffingCounter(deliverableType, () =>
          validationFailed('The file is not a zip archive or MP3, WAV, FLAC or OGG audio', [
            fieldIssue('file', 'not a zip or audio file'),
          ]),
        );
        // the key's extension is only known from the first bytes: a provisional key, renamed once known
        const key = `${productFolder(id)}file/${randomUUID()}.upload`;
        keys.push(key);
        file.on('error', (error) => counter.stream.destroy(error));
        // the first bytes may be refused before the store has opened its file: put() still sees the error
        counter.stream.on('error', () => undefined);
        await this.storage.put(key, file.pipe(counter.stream));
        const { bytes, kind } = counter.result();
        return { key, bytes, kind, filename: displayName(info.filename, `product.${kind.extension}`) };
      });
      const finalKey = fileKey(id, received.kind.extension);
      await this.storage.move(received.key, finalKey);
      keys.push(finalKey);
      return await this.deps.scope.transaction(async () => {
        const current = await this.catalog.editable(actor, id);
        const updated = await this.products.update(id, {
          file_key: finalKey,
          file_name: received.filename,
          file_size: received.bytes,
          file_content_type: received.kind.contentType,
        });
        const previous = current.file_key;
        if (previous && previous !== finalKey) this.deps.scope.afterCommit(() => this.removeObjects([previous]));
        return this.catalog.reply(updated);
      });
    } catch (error) {
      await this.removeObjects(keys);
      throw error;
    }
  }
}

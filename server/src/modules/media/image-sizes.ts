import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { fitInside } from './images.js';

/** The sides a stored image is scaled to for players (Subsonic's getCoverArt `size`); others are brought into it. */
export const IMAGE_SIZE_MIN = 16;
export const IMAGE_SIZE_MAX = 2048;

/** A stored image: where it is and its type (the scaled copies keep the type: PNG for one with alpha, else JPEG). */
export interface StoredImage {
  key: string;
  contentType: string;
}

/**
 * Where the copies of a stored image scaled for players live: a folder beside it, named after it,
 * so that whoever removes the image removes them with it (`deletePrefix`), and a new image (a new
 * key) never serves an old one's copies.
 */
export const scaledPrefix = (sourceKey: string) => `${sourceKey}-sizes/`;
const scaledKey = (sourceKey: string, side: number) => `${scaledPrefix(sourceKey)}${side}`;

/** `side` brought into IMAGE_SIZE_MIN..IMAGE_SIZE_MAX. */
export const clampSide = (side: number) => Math.min(IMAGE_SIZE_MAX, Math.max(IMAGE_SIZE_MIN, Math.round(side)));

/**
 * The image fitted inside side×side (proportions kept, never enlarged), made once per side and
 * stored under scaledPrefix: the next request reads it back instead of decoding the source again.
 * Two requests at once may both make it; each put replaces the object whole, so either is served.
 */
export async function scaledImage(storage: ObjectStorage, source: StoredImage, side: number): Promise<StoredImage> {
  const key = scaledKey(source.key, clampSide(side));
  if ((await storage.size(key)) !== undefined) return { key, contentType: source.contentType };
  const original = await buffer(await storage.get(source.key));
  const data = await fitInside(original, clampSide(side), source.contentType === 'image/png' ? 'png' : 'jpeg');
  await storage.put(key, Readable.from([data]), { contentType: source.contentType });
  return { key, contentType: source.contentType };
}

/** An image as players get it: its type, a tag naming these bytes (quoted, for ETag), and the bytes. */
export interface ServedImage {
  etag: string;
  contentType: string;
  /** Opened only when the bytes are sent (an If-None-Match that matches the tag needs none). */
  read(): Promise<{ body: Readable; size: number | undefined }>;
}

/** A stored image as served: its tag is its key's hash (a new image or size is a new key). */
export function servedImage(storage: ObjectStorage, image: StoredImage): ServedImage {
  return {
    etag: `"${createHash('sha256').update(image.key).digest('base64url').slice(0, 27)}"`,
    contentType: image.contentType,
    read: async () => ({ body: await storage.get(image.key), size: await storage.size(image.key) }),
  };
}

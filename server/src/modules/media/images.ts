import { AVATAR_SIZES, type AvatarSize } from '@riff/contract';
import type { default as SharpLibrary, Sharp } from 'sharp';
import { AppError } from '../../platform/errors/app-error.js';

/** An image as the server stores it: re-encoded, with no metadata (EXIF, GPS, ICC comments) left. */
export interface EncodedImage {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  width: number;
  height: number;
}

export type ImageFormat = 'png' | 'jpeg' | 'webp';
const ACCEPTED: readonly string[] = ['png', 'jpeg', 'webp'];

/** Avatars up to 10 MiB; covers are what the tags hold. */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
/** Covers are re-encoded to fit this square (not enlarged). */
export const COVER_MAX_SIDE = 1200;
/** A decompression bomb (a small file of huge dimensions) is refused before it is decoded. */
const MAX_INPUT_PIXELS = 40_000_000;

export class ImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageError';
  }
}

// sharp (a native library) loads with the first image, not at every start
let library: Promise<typeof SharpLibrary> | undefined;
async function loadSharp(): Promise<(bytes: Buffer) => Sharp> {
  const load = await (library ??= import('sharp').then((module) => module.default));
  return (bytes) => load(bytes, { limitInputPixels: MAX_INPUT_PIXELS });
}

/** The format of an image by its content (not its name or declared type), when it is one accepted. */
export async function imageFormat(bytes: Buffer): Promise<ImageFormat | undefined> {
  try {
    const { format } = await (await loadSharp())(bytes).metadata();
    return format && ACCEPTED.includes(format) ? (format as ImageFormat) : undefined;
  } catch {
    return undefined;
  }
}

async function encode(image: Sharp, alpha: boolean): Promise<EncodedImage> {
  // sharp writes no metadata unless asked (withMetadata): the output carries pixels only
  const output = alpha ? image.png({ compressionLevel: 9 }) : image.jpeg({ quality: 85, mozjpeg: true });
  const { data, info } = await output.toBuffer({ resolveWithObject: true });
  return { data, contentType: alpha ? 'image/png' : 'image/jpeg', width: info.width, height: info.height };
}

async function open(bytes: Buffer): Promise<{ image: () => Sharp; alpha: boolean }> {
  if (!(await imageFormat(bytes))) throw new ImageError('The file is not a PNG, JPEG or WebP image');
  try {
    const sharp = await loadSharp();
    const metadata = await sharp(bytes).metadata();
    // the EXIF orientation is applied to the pixels, since the tag itself goes
    return { image: () => sharp(bytes).rotate(), alpha: metadata.hasAlpha === true };
  } catch {
    throw new ImageError('The image could not be read');
  }
}

/** An avatar in both sizes: centre-cropped squares of 512 and 128 pixels. */
export async function processAvatar(bytes: Buffer): Promise<Record<AvatarSize, EncodedImage>> {
  if (bytes.length > AVATAR_MAX_BYTES) throw new ImageError('The image is larger than 10 MiB');
  const { image, alpha } = await open(bytes);
  const sizes = {} as Record<AvatarSize, EncodedImage>;
  try {
    for (const size of AVATAR_SIZES) {
      sizes[size] = await encode(image().resize(size, size, { fit: 'cover', position: 'centre' }), alpha);
    }
  } catch {
    throw new ImageError('The image could not be read');
  }
  return sizes;
}

/** A cover: fitted inside COVER_MAX_SIDE (never enlarged), its proportions kept. */
export async function processCover(bytes: Buffer): Promise<EncodedImage> {
  const { image, alpha } = await open(bytes);
  try {
    return await encode(
      image().resize(COVER_MAX_SIDE, COVER_MAX_SIDE, { fit: 'inside', withoutEnlargement: true }),
      alpha,
    );
  } catch {
    throw new ImageError('The image could not be read');
  }
}

/**
 * An image the server stored (a cover, an avatar) fitted inside side×side, never enlarged, its
 * proportions kept, in the given format (the stored image's, so its alpha stays where it had one).
 */
export async function fitInside(bytes: Buffer, side: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  const image = (await loadSharp())(bytes).resize(side, side, { fit: 'inside', withoutEnlargement: true });
  const output = format === 'png' ? image.png({ compressionLevel: 9 }) : image.jpeg({ quality: 85, mozjpeg: true });
  return output.toBuffer();
}

/**
 * A photo (gear) fitted inside each of `sides` squares, never enlarged, its proportions kept, without
 * metadata: one image per side, in that order. Not a PNG, JPEG or WebP by its content: 400 INVALID_IMAGE.
 */
export async function photoSizes(bytes: Buffer, sides: readonly number[]): Promise<EncodedImage[]> {
  try {
    const { image, alpha } = await open(bytes);
    const sizes: EncodedImage[] = [];
    for (const side of sides) {
      sizes.push(await encode(image().resize(side, side, { fit: 'inside', withoutEnlargement: true }), alpha));
    }
    return sizes;
  } catch (error) {
    if (error instanceof ImageError) throw new AppError('INVALID_IMAGE', error.message);
    throw new AppError('INVALID_IMAGE', 'The image could not be read');
  }
}

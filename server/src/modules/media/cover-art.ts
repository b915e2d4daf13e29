import { Readable } from 'node:stream';
import type { IPicture } from 'music-metadata';
import { musicMetadata } from '../../platform/media/music-metadata.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { MediaInput } from './ffmpeg-process.js';
import { ImageError, processCover, type EncodedImage } from './images.js';

/** The picture a player shows: the front cover when the tags say which, else the first one. */
export function choosePicture(pictures: IPicture[] | undefined): IPicture | undefined {
  if (!pictures?.length) return undefined;
  return pictures.find((picture) => /front/i.test(picture.type ?? '')) ?? pictures[0];
}

/** The embedded cover of an audio file, re-encoded (no metadata), or undefined when there is none usable. */
export async function extractCoverArt(input: MediaInput): Promise<EncodedImage | undefined> {
  const options = { duration: false, skipCovers: false } as const;
  const { parseFile, parseStream } = await musicMetadata();
  const metadata =
    typeof input === 'string' ? await parseFile(input, options) : await parseStream(input, undefined, options);
  const picture = choosePicture(metadata.common.picture);
  if (!picture) return undefined;
  try {
    return await processCover(Buffer.from(picture.data));
  } catch (error) {
    // a picture that is no image we accept is no cover: the track has none
    if (error instanceof ImageError) return undefined;
    throw error;
  }
}

export interface StoredCover {
  key: string;
  contentType: EncodedImage['contentType'];
  bytes: number;
}

/** Extracts the embedded cover of `input` and stores it at `key`; undefined (nothing stored) when there is none. */
export async function saveCoverArt(
  input: MediaInput,
  destination: { storage: ObjectStorage; key: string },
): Promise<StoredCover | undefined> {
  const cover = await extractCoverArt(input);
  if (!cover) return undefined;
  await destination.storage.put(destination.key, Readable.from([cover.data]), { contentType: cover.contentType });
  return { key: destination.key, contentType: cover.contentType, bytes: cover.data.length };
}

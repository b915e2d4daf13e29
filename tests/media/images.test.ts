import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractCoverArt, saveCoverArt } from '../../server/src/modules/media/cover-art.js';
import { ImageError, imageFormat, processAvatar, processCover } from '../../server/src/modules/media/images.js';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';
import { createLocalStorage } from '../../server/src/platform/storage/local-storage.js';
import { makeAudio } from '../support/audio.js';
import { readObject } from '../support/media.js';

const run = promisify(execFile);
let work: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'riff-images-test-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** A photo as a phone takes it: JPEG with EXIF, GPS position included, and a non-square frame. */
async function photoWithLocation(width = 900, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12', Copyright: 'secret-owner-name' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .toBuffer();
}

describe('avatars', () => {
  it('re-encodes a photo as a 512 square and a 128 thumbnail, with no metadata left', async () => {
    const photo = await photoWithLocation();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const sizes = await processAvatar(photo);
    for (const size of [512, 128] as const) {
      const image = sizes[size];
      const metadata = await sharp(image.data).metadata();
      expect(image.contentType).toBe('image/jpeg');
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', size, size]);
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(image.data.includes('PhoneMaker')).toBe(false);
      expect(image.data.includes('secret-owner-name')).toBe(false);
    }
  });

  it('keeps transparency as PNG, and accepts WebP', async () => {
    const transparent = await sharp({
      create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    expect((await processAvatar(transparent))[128].contentType).toBe('image/png');
    const webp = await sharp({ create: { width: 200, height: 400, channels: 3, background: 'white' } })
      .webp()
      .toBuffer();
    expect(await imageFormat(webp)).toBe('webp');
    const sizes = await processAvatar(webp);
    expect((await sharp(sizes[512].data).metadata()).width).toBe(512);
  });

  it('refuses what is not a PNG, JPEG or WebP image by its content', async () => {
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: 'white' } })
      .gif()
      .toBuffer();
    await expect(processAvatar(gif)).rejects.toBeInstanceOf(ImageError);
    await expect(processAvatar(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).rejects.toThrow(
      'not a PNG, JPEG or WebP',
    );
    await expect(processAvatar(Buffer.alloc(11 * 1024 * 1024))).rejects.toThrow('larger than 10 MiB');
  });
});

describe('cover art', () => {
  it('is taken from the picture embedded in the tags, re-encoded, and stored', async () => {
    const audio = path.join(work, 'plain.mp3');
    const picture = path.join(work, 'cover.jpg');
    const tagged = path.join(work, 'tagged.mp3');
    await writeFile(audio, await makeAudio('mp3', { seconds: 2 }));
    await writeFile(picture, await photoWithLocation(1600, 1600));
    await run(ffmpegPathFrom(), [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      audio,
      '-i',
      picture,
      '-map',
      '0:a',
      '-map',
      '1:v',
      '-c',
      'copy',
      '-id3v2_version',
      '3',
      '-metadata:s:v',
      'title=Album cover',
      '-metadata:s:v',
      'comment=Cover (front)',
      tagged,
    ]);

    const cover = await extractCoverArt(tagged);
    expect(cover?.contentType).toBe('image/jpeg');
    const metadata = await sharp(cover!.data).metadata();
    // fitted inside 1200×1200, stripped
    expect([metadata.width, metadata.height, metadata.exif]).toEqual([1200, 1200, undefined]);

    const storage = createLocalStorage(path.join(work, 'store'));
    const stored = await saveCoverArt(tagged, { storage, key: 'media/track-1/cover' });
    expect(stored).toMatchObject({ key: 'media/track-1/cover', contentType: 'image/jpeg' });
    expect((await readObject(storage, 'media/track-1/cover')).length).toBe(stored!.bytes);
  });

  it('is none when the file embeds no picture', async () => {
    const audio = path.join(work, 'none.flac');
    await writeFile(audio, await makeAudio('flac', { seconds: 1, title: 'No cover' }));
    const storage = createLocalStorage(path.join(work, 'store-none'));
    expect(await saveCoverArt(audio, { storage, key: 'media/track-2/cover' })).toBeUndefined();
    expect(await storage.size('media/track-2/cover')).toBeUndefined();
  });

  it('shrinks nothing smaller than the limit', async () => {
    const small = await sharp({ create: { width: 300, height: 200, channels: 3, background: 'blue' } })
      .png()
      .toBuffer();
    const cover = await processCover(small);
    expect([cover.width, cover.height, cover.contentType]).toEqual([300, 200, 'image/jpeg']);
  });
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../server/src/modules/media/ffmpeg-process.js';
import { stagingPrefix, transcodeToHls } from '../../server/src/modules/media/hls-transcoder.js';
import { withQuery } from '../../server/src/modules/media/hls-playlists.js';
import { ffmpegPathFrom } from '../../server/src/platform/media/ffmpeg-path.js';
import { createLocalStorage } from '../../server/src/platform/storage/local-storage.js';
import type { ObjectStorage } from '../../server/src/platform/storage/object-storage.js';
import { createS3Storage } from '../../server/src/platform/storage/s3-storage.js';
import { makeAudio } from '../support/audio.js';
import { parsePlaylist, probeAudioCodec, probeDuration, readObject } from '../support/media.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';

const ffmpegPath = ffmpegPathFrom();
let work: string;
let source: string;
let sourceDuration: number;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'riff-hls-test-'));
  source = path.join(work, 'tone.mp3');
  await writeFile(source, await makeAudio('mp3', { seconds: 20, title: 'Tone' }));
  sourceDuration = await probeDuration(source);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Every key under `prefix` that the storage holds, by trying each name the master and variant playlists reach. */
async function readRendition(storage: ObjectStorage, prefix: string) {
  const master = parsePlaylist((await readObject(storage, `${prefix}master.m3u8`)).toString('utf8'));
  const variants = [];
  for (const entry of master.playlists ?? []) {
    const folder = `${prefix}${path.posix.dirname(entry.uri)}/`;
    const playlist = parsePlaylist((await readObject(storage, `${prefix}${entry.uri}`)).toString('utf8'));
    const init = playlist.segments[0]!.map!.uri;
    const parts = [await readObject(storage, `${folder}${init}`)];
    for (const segment of playlist.segments) parts.push(await readObject(storage, `${folder}${segment.uri}`));
    const joined = path.join(work, `${entry.uri.replaceAll('/', '-')}-${Date.now()}.mp4`);
    await writeFile(joined, Buffer.concat(parts));
    variants.push({ entry, playlist, joined });
  }
  return { master, variants };
}

async function expectRendition(storage: ObjectStorage, prefix: string) {
  const { master, variants } = await readRendition(storage, prefix);
  expect(master.playlists).toHaveLength(2);
  expect(variants.map((variant) => variant.entry.uri)).toEqual(['160k/index.m3u8', '64k/index.m3u8']);
  for (const { entry, playlist, joined } of variants) {
    expect(entry.attributes.CODECS).toBe('mp4a.40.2');
    expect(entry.attributes.BANDWIDTH).toEqual(expect.any(Number));
    // m3u8-parser leaves AVERAGE-BANDWIDTH as its text
    expect(String(entry.attributes['AVERAGE-BANDWIDTH'])).toMatch(/^[1-9][0-9]*$/);
    expect(Number(entry.attributes['AVERAGE-BANDWIDTH'])).toBeLessThanOrEqual(Number(entry.attributes.BANDWIDTH));
    expect(playlist.playlistType).toBe('VOD');
    expect(playlist.endList).toBe(true);
    expect(playlist.targetDuration).toBe(6);
    // 20 s in 6 s segments
    expect(playlist.segments).toHaveLength(4);
    for (const segment of playlist.segments.slice(0, -1)) expect(segment.duration).toBeCloseTo(6, 0);
    expect(await probeAudioCodec(joined)).toEqual({ codec: 'aac', profile: 'LC' });
    expect(Math.abs((await probeDuration(joined)) - sourceDuration)).toBeLessThan(0.5);
  }
  const [high, low] = variants.map((variant) => Number(variant.entry.attributes['AVERAGE-BANDWIDTH']));
  expect(high).toBeGreaterThan(low!);
  // the 64k variant is announced near 64 kbit/s (a last sliver of a segment does not inflate it)
  expect(Number(variants[1]!.entry.attributes.BANDWIDTH)).toBeLessThan(96_000);
  return { master, variants };
}

describe('HLS transcoding', () => {
  it('writes both variants and a master playlist a player can read, reporting progress to 100', async () => {
    const storage = createLocalStorage(path.join(work, 'store-a'));
    const progress: number[] = [];
    const result = await transcodeToHls(
      source,
      { storage, prefix: 'media/track-a/v1/hls/' },
      { ffmpegPath, onProgress: (percent) => progress.push(percent) },
    );

    expect(result.masterKey).toBe('media/track-a/v1/hls/master.m3u8');
    expect(result.files.at(-1)).toBe('master.m3u8');
    await expectRendition(storage, 'media/track-a/v1/hls/');
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(100);
    expect(progress.filter((percent) => percent > 0 && percent < 90).length).toBeGreaterThan(0);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(new Set(progress).size).toBe(progress.length);
    // the staging prefix is gone once published
    expect(await storage.size(`${stagingPrefix('media/track-a/v1/hls/')}master.m3u8`)).toBeUndefined();
  });

  it('takes a stream as input', async () => {
    const storage = createLocalStorage(path.join(work, 'store-b'));
    const { createReadStream } = await import('node:fs');
    await transcodeToHls(
      createReadStream(source),
      { storage, prefix: 'media/track-b/v1/hls/' },
      { ffmpegPath, durationSeconds: sourceDuration },
    );
    await expectRendition(storage, 'media/track-b/v1/hls/');
  });

  it('fails with a readable message when ffmpeg is missing, and publishes nothing', async () => {
    const storage = createLocalStorage(path.join(work, 'store-c'));
    const failure = await transcodeToHls(
      source,
      { storage, prefix: 'media/track-c/v1/hls/' },
      { ffmpegPath: path.join(work, 'no-ffmpeg-here') },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as MediaError).reason).toBe('ffmpeg-missing');
    expect((failure as MediaError).message).toMatch(/could not be converted for streaming.*ffmpeg.*not available/);
    expect(await storage.size('media/track-c/v1/hls/master.m3u8')).toBeUndefined();
  });

  it('fails with a readable message when the file is no audio ffmpeg can decode', async () => {
    const storage = createLocalStorage(path.join(work, 'store-d'));
    const failure = await transcodeToHls(
      Readable.from([Buffer.from('this is not audio at all '.repeat(200))]),
      { storage, prefix: 'media/track-d/v1/hls/' },
      { ffmpegPath },
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MediaError);
    expect((failure as MediaError).message).toMatch(/^The audio could not be converted for streaming: /);
    expect((failure as MediaError).detail).toBeTruthy();
    expect(await storage.size('media/track-d/v1/hls/master.m3u8')).toBeUndefined();
  });

  it('leaves no master playlist when stopped while publishing, and a second run completes the rendition', async () => {
    const root = path.join(work, 'store-e');
    const storage = createLocalStorage(root);
    let moves = 0;
    const dying: ObjectStorage = {
      ...storage,
      async move(from, to) {
        if (++moves > 3) throw new Error('killed');
        return storage.move(from, to);
      },
    };
    const prefix = 'media/track-e/v1/hls/';
    await expect(transcodeToHls(source, { storage: dying, prefix }, { ffmpegPath })).rejects.toThrow('killed');
    // some files reached the prefix, but no master: nothing a player can start from
    expect(await storage.size(`${prefix}160k/init.mp4`)).toBeGreaterThan(0);
    expect(await storage.size(`${prefix}master.m3u8`)).toBeUndefined();

    await transcodeToHls(source, { storage, prefix }, { ffmpegPath });
    await expectRendition(storage, prefix);
    expect(await storage.size(`${stagingPrefix(prefix)}160k/init.mp4`)).toBeUndefined();
  });

  it('stops ffmpeg when the job is cancelled mid-encode, publishing nothing', async () => {
    const storage = createLocalStorage(path.join(work, 'store-f'));
    const controller = new AbortController();
    const failure = await transcodeToHls(
      source,
      { storage, prefix: 'media/track-f/v1/hls/' },
      {
        ffmpegPath,
        signal: controller.signal,
        onProgress: (percent) => {
          if (percent > 0) controller.abort();
        },
      },
    ).catch((error: unknown) => error);
    expect((failure as MediaError).reason).toBe('cancelled');
    expect(await storage.size('media/track-f/v1/hls/master.m3u8')).toBeUndefined();
  });

  it('adds a query to every URI of a playlist', () => {
    const variant = '#EXTM3U\n#EXT-X-MAP:URI="init.mp4"\n#EXTINF:6.0,\nsegment-00000.m4s\n#EXT-X-ENDLIST\n';
    const tokened = parsePlaylist(withQuery(variant, { v: 'run-1', playback: 'a.b+c' }));
    expect(tokened.segments[0]!.uri).toBe('segment-00000.m4s?v=run-1&playback=a.b%2Bc');
    expect(tokened.segments[0]!.map!.uri).toBe('init.mp4?v=run-1&playback=a.b%2Bc');
  });
});

describe('HLS transcoding on S3', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3('riff-hls');
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('publishes the same rendition through the S3 driver', async () => {
    const storage = createS3Storage({
      bucket: s3.bucket,
      region: 'us-east-1',
      endpoint: s3.endpoint,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    });
    const prefix = 'media/track-s3/v1/hls/';
    await transcodeToHls(source, { storage, prefix }, { ffmpegPath });
    await expectRendition(storage, prefix);
    expect(await storage.size(`${stagingPrefix(prefix)}master.m3u8`)).toBeUndefined();
  });
});

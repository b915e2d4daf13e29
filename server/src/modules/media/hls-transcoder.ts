import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HLS_VARIANTS, type HlsVariant } from '@riff/contract';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { MediaError, runFfmpeg, type MediaInput } from './ffmpeg-process.js';
import { masterPlaylist, parseVariantPlaylist, type VariantStats } from './hls-playlists.js';

/** AAC-LC in fMP4 segments of 6 s, two variants (160k, 64k), always both. */
export const HLS_SEGMENT_SECONDS = 6;
export const AAC_LC_CODEC = 'mp4a.40.2';
const BITRATES: Record<HlsVariant, string> = { '160k': '160k', '64k': '64k' };

export const HLS_CONTENT_TYPES = {
  playlist: 'application/vnd.apple.mpegurl',
  media: 'audio/mp4',
} as const;

/** Where the HLS files go: `prefix` (ending in `/`) holds master.m3u8 and one folder per variant. */
export interface HlsDestination {
  storage: ObjectStorage;
  prefix: string;
}

export interface HlsOptions {
  ffmpegPath: string;
  /** The input's duration in seconds when known (a stream's may not be); else ffmpeg's report is used. */
  durationSeconds?: number | undefined;
  /** Whole percents 0–100, increasing; 100 only once the files are published. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

export interface HlsResult {
  /** The published prefix and the key of its master playlist. */
  prefix: string;
  masterKey: string;
  variants: (VariantStats & { variant: HlsVariant })[];
  /** Every key written under the prefix (relative to it), master last. */
  files: string[];
}

/** The temporary prefix beside `prefix` the files are uploaded to before they are published. */
export function stagingPrefix(prefix: string): string {
  return `${prefix.replace(/\/$/, '')}-staging/`;
}

/** Encode share of the progress; uploading and publishing take the rest. */
const ENCODE_SHARE = 90;

function variantArgs(variant: HlsVariant): string[] {
  return [
    '-map',
    '0:a:0',
    '-vn',
    '-sn',
    '-dn',
    '-c:a',
    'aac',
    '-profile:a',
    'aac_low',
    '-b:a',
    BITRATES[variant],
    '-ac',
    '2',
    '-f',
    'hls',
    '-hls_time',
    String(HLS_SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    `${variant}/segment-%05d.m4s`,
    `${variant}/index.m3u8`,
  ];
}

/** The ffmpeg arguments after `-i`: one decode, one AAC encoder and HLS muxer per variant (bench runs the same). */
export function hlsFfmpegArgs(): string[] {
  return HLS_VARIANTS.flatMap(variantArgs);
}

/**
 * Makes the HLS rendition of `input` and publishes it under `destination.prefix`. ffmpeg writes
 * into a local temporary folder; the files are uploaded to a staging prefix, then moved under the
 * prefix, each variant playlist after its segments and master.m3u8 last. A run killed at any point
 * leaves no master playlist under the prefix, and the next run clears what it left (staging and
 * prefix alike): the prefix must be one that nothing serves yet (the caller's to choose, e.g. per
 * audio version).
 */
export async function transcodeToHls(
  input: MediaInput,
  destination: HlsDestination,
  options: HlsOptions,
): Promise<HlsResult> {
  const { storage } = destination;
  const prefix = destination.prefix.endsWith('/') ? destination.prefix : `${destination.prefix}/`;
  const staging = stagingPrefix(prefix);
  let reported = -1;
  const report = (percent: number) => {
    const whole = Math.max(0, Math.min(100, Math.floor(percent)));
    if (whole > reported) {
      reported = whole;
      options.onProgress?.(whole);
    }
  };
  report(0);

  const work = await mkdtemp(path.join(tmpdir(), 'riff-hls-'));
  try {
    for (const variant of HLS_VARIANTS) await mkdir(path.join(work, variant));
    await runFfmpeg({
      ffmpegPath: options.ffmpegPath,
      input,
      cwd: work,
      args: hlsFfmpegArgs(),
      doing: 'converted for streaming',
      signal: options.signal,
      onProgress: (seconds, reportedDuration) => {
        const duration = options.durationSeconds ?? reportedDuration;
        // encoding never reports 90 %: the last steps are the upload and the publication
        if (duration && duration > 0) report(Math.min(ENCODE_SHARE - 1, (seconds / duration) * ENCODE_SHARE));
      },
    });
    report(ENCODE_SHARE - 1);

    const files: { name: string; contentType: string }[] = [];
    const variants: HlsResult['variants'] = [];
    for (const variant of HLS_VARIANTS) {
      const playlist = await readFile(path.join(work, variant, 'index.m3u8'), 'utf8').catch(() => {
        throw new MediaError(
          'ffmpeg-failed',
          'The audio could not be converted for streaming: the media tool wrote no playlist',
        );
      });
      const entries = parseVariantPlaylist(playlist);
      if (entries.segments.length === 0) {
        throw new MediaError(
          'no-audio',
          'The audio could not be converted for streaming: the file holds no audio ffmpeg can decode',
        );
      }
      const sizes = new Map<string, number>();
      for (const name of [entries.map, ...entries.segments.map((segment) => segment.uri)]) {
        sizes.set(name, (await stat(path.join(work, variant, name))).size);
      }
      variants.push({ variant, ...variantStats(entries.segments, sizes) });
      for (const name of [entries.map, ...entries.segments.map((segment) => segment.uri)]) {
        files.push({ name: `${variant}/${name}`, contentType: HLS_CONTENT_TYPES.media });
      }
      files.push({ name: `${variant}/index.m3u8`, contentType: HLS_CONTENT_TYPES.playlist });
    }
    const master = masterPlaylist(variants, AAC_LC_CODEC);
    files.push({ name: 'master.m3u8', contentType: HLS_CONTENT_TYPES.playlist });

    options.signal?.throwIfAborted();
    // what a killed earlier run left behind: staged files, and files it had begun to publish
    await storage.deletePrefix(staging);
    await storage.deletePrefix(prefix);
    let done = 0;
    const steps = files.length * 2;
    for (const file of files) {
      options.signal?.throwIfAborted();
      const body =
        file.name === 'master.m3u8'
          ? Readable.from([Buffer.from(master)])
          : createReadStream(path.join(work, ...file.name.split('/')));
      await storage.put(`${staging}${file.name}`, body, { contentType: file.contentType });
      report(ENCODE_SHARE + (++done / steps) * (100 - ENCODE_SHARE) - 1);
    }
    for (const file of files) {
      options.signal?.throwIfAborted();
      await storage.move(`${staging}${file.name}`, `${prefix}${file.name}`);
      report(ENCODE_SHARE + (++done / steps) * (100 - ENCODE_SHARE) - 1);
    }
    await storage.deletePrefix(staging);
    report(100);
    return { prefix, masterKey: `${prefix}master.m3u8`, variants, files: files.map((file) => file.name) };
  } catch (error) {
    if (options.signal?.aborted && !(error instanceof MediaError))
      throw new MediaError('cancelled', 'Processing was cancelled');
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * BANDWIDTH is the peak segment rate over segments of at least half the target duration: the last
 * segment is often a sliver of one AAC frame (23 ms) whose rate is the fMP4 boxes' overhead, and
 * counting it would announce the 64k variant at some 240 kbit/s, steering players away from it.
 * A track too short for any such segment counts them all.
 */
function variantStats(segments: { uri: string; duration: number }[], sizes: Map<string, number>): VariantStats {
  let peak = 0;
  let bytes = 0;
  let seconds = 0;
  const long = segments.filter((segment) => segment.duration >= HLS_SEGMENT_SECONDS / 2);
  const counted = new Set((long.length > 0 ? long : segments).map((segment) => segment.uri));
  for (const segment of segments) {
    const size = sizes.get(segment.uri) ?? 0;
    bytes += size;
    seconds += segment.duration;
    if (segment.duration > 0 && counted.has(segment.uri)) peak = Math.max(peak, (size * 8) / segment.duration);
  }
  const average = seconds > 0 ? (bytes * 8) / seconds : 0;
  return {
    segments: segments.length,
    duration: seconds,
    // never below the average, which counts every byte
    bandwidth: Math.ceil(Math.max(peak, average)),
    averageBandwidth: Math.ceil(average),
  };
}

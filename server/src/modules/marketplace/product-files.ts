import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { musicMetadata } from '../../platform/media/music-metadata.js';
import { PRODUCT_PREVIEW_MAX_SECONDS } from '@riff/contract';
import { AppError } from '../../platform/errors/app-error.js';
import { MediaError, runFfmpeg } from '../media/ffmpeg-process.js';
import { CONTENT_TYPES, sniffFormat } from '../tracks/audio-probe.js';

/** Enough of a file's start to recognise a zip archive or an audio format. */
const SNIFF_BYTES = 12;

/** What a deliverable is, by its first bytes: a zip archive (local file, empty archive or spanned) or audio. */
export function deliverableType(head: Buffer): { contentType: string; extension: string } | undefined {
  if (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    [0x0304, 0x0506, 0x0708].includes(head.readUInt16BE(2))
  ) {
    return { contentType: 'application/zip', extension: 'zip' };
  }
  const format = sniffFormat(head);
  return format ? { contentType: CONTENT_TYPES[format], extension: format } : undefined;
}

/**
 * A pass-through that counts the bytes and refuses, from its first bytes, what `recognise` does not
 * know (the error it throws ends the upload before more is stored).
 */
export function sniffingCounter<T>(recognise: (head: Buffer) => T | undefined, refusal: () => AppError) {
  let head = Buffer.alloc(0);
  let kind: T | undefined;
  let bytes = 0;
  const check = () => {
    kind = recognise(head);
    if (kind === undefined) throw refusal();
  };
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        bytes += chunk.length;
        if (kind === undefined) {
          head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]).subarray(0, SNIFF_BYTES);
          if (head.length >= SNIFF_BYTES) check();
        }
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        if (kind === undefined) check();
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
  return { stream, result: () => ({ bytes, kind: kind! }) };
}

/** Writes an uploaded audio file to `target`, refusing what is not MP3, WAV, FLAC or OGG by its first bytes. */
export async function receiveAudio(file: Readable, target: string): Promise<number> {
  const counter = sniffingCounter(
    sniffFormat,
    () => new AppError('INVALID_AUDIO', 'The file is not MP3, WAV, FLAC or OGG audio'),
  );
  await pipeline(file, counter.stream, createWriteStream(target));
  return counter.result().bytes;
}

/**
 * The first PRODUCT_PREVIEW_MAX_SECONDS of `input` as MP3 at `output`, without the source's tags or
 * pictures; its duration in whole seconds. Audio ffmpeg cannot decode is 400 INVALID_AUDIO.
 */
export async function cutPreview(ffmpegPath: string, input: string, output: string): Promise<number> {
  try {
    await runFfmpeg({
      ffmpegPath,
      input,
      args: [
        '-map',
        '0:a:0',
        '-t',
        String(PRODUCT_PREVIEW_MAX_SECONDS),
        '-map_metadata',
        '-1',
        '-vn',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '192k',
        '-f',
        'mp3',
        '-y',
        path.basename(output),
      ],
      cwd: path.dirname(output),
      doing: 'cut into a preview',
    });
  } catch (error) {
    if (error instanceof MediaError && error.reason === 'ffmpeg-missing')
      throw new AppError('UNAVAILABLE', error.message);
    // the tool runs: what it cannot cut is the file's fault
    if (error instanceof MediaError) throw new AppError('INVALID_AUDIO', error.message);
    throw error;
  }
  const { parseFile } = await musicMetadata();
  const { format } = await parseFile(output, { duration: true });
  return Math.min(PRODUCT_PREVIEW_MAX_SECONDS, Math.max(0, Math.round(format.duration ?? 0)));
}

/** A client's file name without folders or control characters, for display and Content-Disposition only. */
export function displayName(filename: string, fallback: string): string {
  const base = path.posix
    // eslint-disable-next-line no-control-regex
    .basename(filename.replace(/\\/g, '/').replace(/[\u0000-\u001f\u007f"]/g, ''))
    .trim()
    .slice(0, 255);
  return base.length > 0 ? base : fallback;
}

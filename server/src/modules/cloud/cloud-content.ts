import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { AppError } from '../../platform/errors/app-error.js';
import { CONTENT_TYPES, sniffFormat, UPLOAD_BUFFER_BYTES } from '../tracks/audio-probe.js';

/** Enough of a file's start to recognise the formats below. */
const SNIFF_BYTES = 16;

const ascii = (head: Buffer, from: number, to: number) => (head.length >= to ? head.toString('latin1', from, to) : '');

/**
 * A file's content type from its first bytes, never from its name or what the client declared:
 * the audio a musician keeps (MP3, WAV, FLAC, OGG, AIFF, MIDI), images, PDF and zip archives (which
 * DAW projects often are); anything else is application/octet-stream.
 */
export function sniffContentType(head: Buffer): string {
  const audio = sniffFormat(head);
  if (audio) return CONTENT_TYPES[audio];
  if (ascii(head, 0, 4) === 'FORM' && ['AIFF', 'AIFC'].includes(ascii(head, 8, 12))) return 'audio/aiff';
  if (ascii(head, 0, 4) === 'MThd') return 'audio/midi';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    [0x0304, 0x0506, 0x0708].includes(head.readUInt16BE(2))
  )
    return 'application/zip';
  return 'application/octet-stream';
}

export interface InspectedContent {
  bytes: number;
  md5: string;
  contentType: string;
}

/**
 * A pass-through that counts, hashes and sniffs the bytes on their way to storage, and fails as soon
 * as they pass `maxBytes` (with the given error, e.g. QUOTA_EXCEEDED).
 */
export function contentInspector(options: { maxBytes: number; overLimit: () => AppError }) {
  const hash = createHash('md5');
  let bytes = 0;
  let head = Buffer.alloc(0);
  const stream = new Transform({
    highWaterMark: UPLOAD_BUFFER_BYTES,
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > options.maxBytes) return done(options.overLimit());
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]).subarray(0, SNIFF_BYTES);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // an early failure must not go uncaught before the storage driver attaches its handlers
  stream.on('error', () => undefined);
  return {
    stream,
    /** The same count, hash and sniff for bytes read back from storage. */
    result(): InspectedContent {
      return { bytes, md5: hash.digest('hex'), contentType: sniffContentType(head) };
    },
  };
}

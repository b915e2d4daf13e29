import type { Readable } from 'node:stream';
import type { TrackRow } from './tracks.tables.js';
import { AppError } from '../../platform/errors/app-error.js';
import type { ByteRange, ObjectStorage } from '../../platform/storage/object-storage.js';
import { CONTENT_TYPES } from './audio-probe.js';

export const PRESIGNED_URL_TTL_SECONDS = 300;

/** A range up to this size is read whole and sent as one buffer (a player's ranges are mostly this small). */
const SMALL_RANGE_BYTES = 256 * 1024;

export type StreamReply =
  | { status: 200 | 206; headers: Record<string, string>; body: Readable | Buffer }
  | { status: 302 | 304; headers: Record<string, string>; body?: undefined };

/**
 * One `bytes=` range, resolved against the size. undefined when the header is absent, malformed or
 * asks for several ranges (the whole file is then served, as RFC 9110 allows); 'unsatisfiable'
 * when it starts past the end.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, from, to] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

const etagOf = (track: TrackRow) => `"${track.md5}"`;

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const value = candidate.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}

/** RFC 6266 attachment name: an ASCII fallback and the UTF-8 original. */
export function attachmentDisposition(title: string, format: string): string {
  const name = `${title}.${format}`.replace(/[\r\n"\\/]/g, '_');
  const ascii = name.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams or redirects to a track's original, honouring Range, If-Range and If-None-Match. */
export async function streamTrack(
  storage: ObjectStorage,
  track: TrackRow,
  request: { range?: string | undefined; ifNoneMatch?: string | undefined; ifRange?: string | undefined },
  disposition: 'inline' | 'attachment',
): Promise<StreamReply> {
  if (!track.file_key) throw new AppError('NOT_FOUND', 'This track has no file');
  const contentType = CONTENT_TYPES[track.format];
  const contentDisposition = disposition === 'attachment' ? attachmentDisposition(track.title, track.format) : 'inline';
  const cacheControl = track.is_public ? 'public, max-age=300' : 'private, max-age=0';

  const presigned = await storage.presignedGetUrl(track.file_key, {
    expiresInSeconds: PRESIGNED_URL_TTL_SECONDS,
    contentType,
    contentDisposition,
  });
  if (presigned) return { status: 302, headers: { Location: presigned, 'Cache-Control': 'no-store' } };

  const size = Number(track.file_size);
  const etag = etagOf(track);
  const common = { 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': cacheControl };
  if (matchesEtag(request.ifNoneMatch, etag)) return { status: 304, headers: common };

  const rangeApplies = !request.ifRange || request.ifRange.trim() === etag;
  const range = rangeApplies ? parseRange(request.range, size) : undefined;
  if (range === 'unsatisfiable') {
    throw new AppError('RANGE_NOT_SATISFIABLE', `The range starts past the end of the file (${size} bytes)`, {
      headers: { 'Content-Range': `bytes */${size}`, 'Accept-Ranges': 'bytes' },
    });
  }
  const headers = { ...common, 'Content-Type': contentType, 'Content-Disposition': contentDisposition };
  if (range) {
    const length = range.end - range.start + 1;
    const small = storage.readRange && length <= SMALL_RANGE_BYTES;
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
        'Content-Length': String(length),
      },
      body: small ? await storage.readRange!(track.file_key, range) : await storage.get(track.file_key, range),
    };
  }
  return {
    status: 200,
    headers: { ...headers, 'Content-Length': String(size) },
    body: await storage.get(track.file_key),
  };
}

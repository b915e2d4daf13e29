import { AppError } from '../../platform/errors/app-error.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { parseRange, PRESIGNED_URL_TTL_SECONDS, type StreamReply } from '../tracks/track-streaming.js';

/** What a stored content needs to be served. */
export interface StoredContent {
  key: string;
  size: number;
  md5: string;
  contentType: string;
  /** The name the download is saved as. */
  name: string;
}

/** RFC 6266 attachment: an ASCII fallback and the UTF-8 name (`filename*=UTF-8''…`). */
export function attachment(name: string): string {
  const safe = name.replace(/[\r\n"\\/]/g, '_');
  const asciiName = safe.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

const matches = (header: string | undefined, etag: string) =>
  !!header && header.split(',').some((candidate) => ['*', etag, `W/${etag}`].includes(candidate.trim()));

/** Streams a stored content as an attachment with Range, If-Range and If-None-Match, or redirects to S3. */
export async function serveContent(
  storage: ObjectStorage,
  content: StoredContent,
  request: { range?: string | undefined; ifNoneMatch?: string | undefined; ifRange?: string | undefined },
): Promise<StreamReply> {
  const disposition = attachment(content.name);
  const presigned = await storage.presignedGetUrl(content.key, {
    expiresInSeconds: PRESIGNED_URL_TTL_SECONDS,
    contentType: content.contentType,
    contentDisposition: disposition,
  });
  if (presigned) return { status: 302, headers: { Location: presigned, 'Cache-Control': 'no-store' } };
  const etag = `"${content.md5}"`;
  const common = { 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': 'private, max-age=0' };
  if (matches(request.ifNoneMatch, etag)) return { status: 304, headers: common };
  const range =
    !request.ifRange || request.ifRange.trim() === etag ? parseRange(request.range, content.size) : undefined;
  if (range === 'unsatisfiable') {
    throw new AppError('RANGE_NOT_SATISFIABLE', `The range starts past the end of the file (${content.size} bytes)`, {
      headers: { 'Content-Range': `bytes */${content.size}`, 'Accept-Ranges': 'bytes' },
    });
  }
  const headers = { ...common, 'Content-Type': content.contentType, 'Content-Disposition': disposition };
  if (range) {
    return {
      status: 206,
      headers: {
        ...headers,
        'Content-Range': `bytes ${range.start}-${range.end}/${content.size}`,
        'Content-Length': String(range.end - range.start + 1),
      },
      body: await storage.get(content.key, range),
    };
  }
  if (content.size === 0) return { status: 200, headers: { ...headers, 'Content-Length': '0' }, body: Buffer.alloc(0) };
  return {
    status: 200,
    headers: { ...headers, 'Content-Length': String(content.size) },
    body: await storage.get(content.key),
  };
}

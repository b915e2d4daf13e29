/**
 * The response headers openapi.json documents, and on which replies the server sends them
 * (X-Request-Id on every reply, the rate headers on key-authenticated ones; streaming headers as
 * server/src/modules/tracks/track-streaming.ts sends them).
 */
import type { RouteMeta } from '../common/route-meta.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const RESPONSE_HEADERS: Record<
  string,
  { description: string; schema: Record<string, Json>; example?: Json; required?: boolean }
> = {
  'X-Request-Id': {
    description:
      'The id of this request: the caller’s own X-Request-Id when it sent a sane one, else a new UUID. Quote it when reporting a problem.',
    required: true,
    // the server echoes a caller's id only when it matches this (request-log.middleware), else sends a UUID
    schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    example: '3f9a7c1e-5b2d-4e8f-a6c0-1d9b7e5f3a2c',
  },
  'Retry-After': {
    description: 'Seconds to wait before trying again.',
    schema: { type: 'integer', minimum: 1 },
    example: 30,
  },
  'X-RateLimit-Limit': {
    description:
      'Sent on replies to API-key requests: requests allowed per hour for this method class (read or write).',
    schema: { type: 'integer' },
    example: 1000,
  },
  'X-RateLimit-Remaining': {
    description: 'Sent on replies to API-key requests: requests left in the current window.',
    schema: { type: 'integer' },
    example: 997,
  },
  'X-RateLimit-Reset': {
    description: 'Sent on replies to API-key requests: when the window resets, in unix seconds.',
    schema: { type: 'integer' },
    example: 1795778900,
  },
  'Set-Cookie': {
    description:
      'The refresh_token cookie (HttpOnly, SameSite=Strict, Path=/api/v1/auth); logout and deleting or deactivating one’s own account clear it.',
    schema: { type: 'string' },
    example:
      'refresh_token=9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a.Qm9vay1zZWNyZXQ; Max-Age=604800; Path=/api/v1/auth; HttpOnly; SameSite=Strict',
  },
  Deprecation: {
    description: 'true when the request used a deprecated form (here: the token query parameter).',
    schema: { type: 'string', enum: ['true'] },
    example: 'true',
  },
  ETag: {
    description:
      'Strong validator: of the file (its MD5) on streams and downloads, sent back in If-None-Match or If-Range; of the queue ' +
      '(its version, quoted) on /queue and of a playlist (its snapshot_id, quoted) on its reads and writes, sent back in ' +
      'If-None-Match on a read (304 while current) or If-Match on a write (412 when stale).',
    schema: { type: 'string' },
    example: '"9e107d9d372bb6826bd81d3542a419d6"',
  },
  'Accept-Ranges': {
    description: 'Byte ranges are supported.',
    schema: { type: 'string', enum: ['bytes'] },
    example: 'bytes',
  },
  'Content-Range': {
    description: 'The range sent, bytes start-end/size (206); bytes */size on 416.',
    schema: { type: 'string' },
    example: 'bytes 0-1048575/8563200',
  },
  'Content-Disposition': {
    description: 'inline for streams; attachment with a filename for downloads and exports.',
    schema: { type: 'string' },
    example: 'attachment; filename="Night Drive.mp3"',
  },
  Location: {
    description: 'A presigned URL of the file on S3 storage, valid 5 minutes.',
    schema: { type: 'string', format: 'uri' },
  },
  'X-Total-Count': {
    description: 'The number of items of a plain-array list over all its pages.',
    schema: { type: 'integer', minimum: 0 },
    example: 42,
  },
  Link: {
    description: 'RFC 8288 links of a plain-array list: rel first, last, and prev and next where they exist.',
    schema: { type: 'string' },
    example: '<http://127.0.0.1:8080/api/v1/marketplace/products?page=2&limit=20>; rel="next"',
  },
};

export type ResponseHeaderName = keyof typeof RESPONSE_HEADERS;

const STREAM_HEADERS: Record<string, ResponseHeaderName[]> = {
  '200': ['ETag', 'Accept-Ranges', 'Content-Disposition'],
  '206': ['ETag', 'Accept-Ranges', 'Content-Disposition', 'Content-Range'],
  '302': ['Location'],
  '304': ['ETag', 'Accept-Ranges'],
  '416': ['Content-Range', 'Accept-Ranges'],
};

/** Headers particular to an operation (by contract id, e.g. auth.login), per status. */
const OPERATION_HEADERS: Record<string, Record<string, ResponseHeaderName[]>> = {
  'auth.login': { '200': ['Set-Cookie'] },
  'auth.loginTwoFactor': { '200': ['Set-Cookie'] },
  'auth.refresh': { '200': ['Set-Cookie'] },
  'auth.logout': { '200': ['Set-Cookie'] },
  'auth.verifyEmail': { '200': ['Deprecation'] },
  'users.exportData': { '200': ['Content-Disposition'] },
  // deleting or deactivating one's own account clears the refresh cookie
  'users.deleteAccount': { '200': ['Set-Cookie'] },
  'users.remove': { '200': ['Set-Cookie'] },
  'tracks.stream': STREAM_HEADERS,
  'tracks.download': STREAM_HEADERS,
  // 404 MEDIA_NOT_READY says when to look again
  'media.waveform': { '404': ['Retry-After'] },
  'media.hlsMaster': { '404': ['Retry-After'] },
  'media.hlsVariant': { '404': ['Retry-After'] },
  'media.hlsSegment': { '302': ['Location'], '404': ['Retry-After'] },
  // plain-array lists (the marketplace's) carry their pagination in headers: the body has no room for it
  'marketplace.listProducts': { '200': ['X-Total-Count', 'Link'] },
  'marketplace.preview': {
    '200': ['Accept-Ranges'],
    '206': ['Accept-Ranges', 'Content-Range'],
    '416': ['Content-Range', 'Accept-Ranges'],
  },
  // the queue's version, for If-Match on the next write
  'queue.get': { '200': ['ETag'], '304': ['ETag'] },
  'queue.update': { '200': ['ETag'] },
  'queue.addItem': { '201': ['ETag'] },
  'queue.removeItem': { '200': ['ETag'] },
  'queue.clear': { '200': ['ETag'] },
  // the playlist's snapshot_id, for If-None-Match on reads and If-Match on the next write
  'playlists.get': { '200': ['ETag'], '304': ['ETag'] },
  'playlists.favorites': { '200': ['ETag'], '304': ['ETag'] },
  'playlists.update': { '200': ['ETag'] },
  'playlists.addTrack': { '200': ['ETag'] },
  'playlists.removeTrack': { '200': ['ETag'] },
  'playlists.reorder': { '200': ['ETag'] },
};

/** The headers a reply of this operation and status carries. */
export function responseHeaders(operationId: string, status: string, meta: RouteMeta): ResponseHeaderName[] {
  const names: ResponseHeaderName[] = ['X-Request-Id'];
  if (status === '429' || status === '503') names.push('Retry-After');
  if (meta.apiKey) names.push('X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset');
  names.push(...(OPERATION_HEADERS[operationId]?.[status] ?? []));
  return names;
}

/** components.headers: one reusable header object per name. */
export function headerComponents(): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(RESPONSE_HEADERS).map(([name, header]) => [headerComponentName(name), header as Json]),
  );
}

export const headerComponentName = (name: string) => name.replace(/-/g, '');

import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is written as a UUID (an id apps send back that PostgreSQL can compare with one). */
export const isUuid = (value: string): boolean => UUID.test(value);

/** RFC 9562 UUID version 5: SHA-1 of the namespace's 16 bytes and the name's UTF-8, with version and variant set. */
export function uuidV5(namespace: string, name: string): string {
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * An album's id: UUID v5 in the creator's id as namespace, of the album's normalised name (the tracks
 * area's key: trimmed, runs of spaces as one, lower case), so that it stays the same across calls and
 * restarts while the creator keeps one track tagged with it, and two creators' albums of one name
 * differ. A single (a track without an album) is an album of its own: its name is NUL and the track's
 * id, which no album tag can be (PostgreSQL text holds no NUL).
 */
export function albumId(creatorId: string, albumKey: string | null, trackId: string): string {
  return uuidV5(creatorId, albumKey ?? `\u0000${trackId}`);
}

import { createHash, timingSafeEqual } from 'node:crypto';

/** How a private track's secret link is stored: its SHA-256, hex (the secret itself never is). */
export function hashTrackSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `secret` is the track's live secret link (none stored, or none given: no). */
export function secretOpens(storedHash: string | null | undefined, secret: string | undefined): boolean {
  if (!storedHash || !secret) return false;
  const given = Buffer.from(hashTrackSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

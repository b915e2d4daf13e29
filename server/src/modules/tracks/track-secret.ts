import { createHash, timingSafeEqual } from 'node:crypto';
import type { TracksRepository } from './tracks.repository.js';

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

/**
 * A private track's secret link, kept on the track: the social area shares and revokes it (its
 * routes, its rate limit, its events), the tracks area stores it and checks it (canReadTrack).
 */
export interface TrackSecretLinks {
  /** The nonce of the track's live secret link, made now from `fresh` if it has none (concurrent shares agree on one). */
  secretNonce(trackId: string, fresh: { nonce: string; hash: (nonce: string) => string }): Promise<string>;
  /** Clears the track's secret link; answers whether it had one. */
  revokeSecret(trackId: string): Promise<boolean>;
  /** The owner's live private tracks whose secret link works, with its nonce, newest track first. */
  liveOf(ownerId: string): Promise<{ trackId: string; nonce: string; updatedAt: Date }[]>;
}

export function createTrackSecretLinks(tracks: TracksRepository): TrackSecretLinks {
  return {
    secretNonce: (trackId, fresh) => tracks.secretNonce(trackId, fresh),
    revokeSecret: (trackId) => tracks.revokeSecret(trackId),
    liveOf: async (ownerId) =>
      (await tracks.liveSecretsOf(ownerId)).map((row) => ({
        trackId: row.id,
        nonce: row.share_secret_nonce,
        updatedAt: row.updated_at,
      })),
  };
}

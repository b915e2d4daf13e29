import type { Broadcaster } from '../broadcast/broadcaster.js';
import type { DbScope } from '../db/transactions.js';

/** Why a user's credentials stopped working; said to the clients whose connections it ends. */
export const REVOCATION_REASONS = {
  password_changed: 'The password was changed',
  password_reset: 'The password was reset',
  two_factor_disabled: 'Two-factor authentication was turned off',
  signed_out: 'Signed out everywhere',
  deactivated: 'The account was deactivated',
  deleted: 'The account was deleted',
  suspended: 'The account is suspended',
  banned: 'The account is banned',
  key_revoked: 'The API key was revoked',
} as const;
export type RevocationReason = keyof typeof REVOCATION_REASONS;

/**
 * Credentials that stopped working: every credential of the user, or, with `keyId`, only what
 * was opened with (or minted from) that one key.
 */
export interface Revocation {
  userId: string;
  keyId?: string;
  reason: RevocationReason;
}

export interface Revocations {
  /**
   * Announces a revocation to every instance once the current unit of work commits (at once
   * outside one), so that what stays open past a request check (live sockets) ends now. The
   * revocation itself (token_version, a deleted key) is the caller's write; this only tells.
   * Every way credentials are revoked calls it: password change and reset, 2FA off,
   * deactivation, deletion, a revoked key, and sanctions.
   */
  revoke(revocation: Revocation): void;
  /** Hears every revocation, from this instance and the others. */
  listen(listener: (revocation: Revocation) => void): void;
}

const isRevocation = (value: unknown): value is Revocation => {
  const candidate = value as Partial<Revocation> | null;
  return (
    typeof candidate?.userId === 'string' &&
    (candidate.keyId === undefined || typeof candidate.keyId === 'string') &&
    typeof candidate.reason === 'string' &&
    Object.hasOwn(REVOCATION_REASONS, candidate.reason)
  );
};

export function createRevocations(scope: DbScope, broadcaster: Broadcaster): Revocations {
  const channel = broadcaster.channel('revocations', isRevocation);
  return {
    revoke(revocation) {
      scope.afterCommit(() => channel.publish(revocation));
    },
    listen: (listener) => channel.listen(listener),
  };
}

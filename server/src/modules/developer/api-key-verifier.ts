import { API_KEY_PREFIX } from '@riff/contract';
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import { sha256Hex } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { UserRow } from '../users/users.tables.js';
import type { ApiKeysRepository } from './api-keys.repository.js';

const MINUTE_MS = 60_000;

export interface ApiKeyVerifierDeps {
  keys: ApiKeysRepository;
  clock: Clock;
  /** The owner, if they may still act (the same rule as for their tokens). */
  activeUser(id: string): Promise<UserRow | undefined>;
}

/** Resolves a `riff_` key: found by its hash, not expired, its owner active; records its use at most once a minute. */
export function developerKeyVerifier(deps: ApiKeyVerifierDeps): ApiKeyVerifier {
  const expired = (row: { expires_at: Date | null }, now: Date) =>
    row.expires_at !== null && row.expires_at.getTime() <= now.getTime();
  return {
    prefix: API_KEY_PREFIX,
    async verify(key) {
      const row = await deps.keys.findByHash(sha256Hex(key));
      const now = deps.clock.now();
      if (!row || expired(row, now)) return undefined;
      const user = await deps.activeUser(row.user_id);
      if (!user) return undefined;
      const since = new Date(now.getTime() - MINUTE_MS);
      if (row.last_used_at === null || row.last_used_at < since) await deps.keys.touch(row.id, now, since);
      return { keyId: row.id, user, scopes: row.scopes, via: 'api_key' };
    },
    // a revoked key's row is gone
    async isLive(keyId) {
      const row = await deps.keys.find(keyId);
      return row !== undefined && !expired(row, deps.clock.now());
    },
  };
}

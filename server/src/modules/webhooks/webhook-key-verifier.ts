import { WEBHOOK_KEY_PREFIX } from '@riff/contract';
import type { ApiKeyVerifier } from '../../platform/auth/authenticate.middleware.js';
import { sha256Hex } from '../../platform/auth/secure-random.js';
import type { UserRow } from '../users/users.tables.js';
import type { WebhooksRepository } from './webhooks.repository.js';

/** Resolves a `whk_` key: an active webhook's, its owner active; read scope only. */
export function webhookKeyVerifier(deps: {
  webhooks: WebhooksRepository;
  activeUser(id: string): Promise<UserRow | undefined>;
}): ApiKeyVerifier {
  return {
    prefix: WEBHOOK_KEY_PREFIX,
    async verify(key) {
      const webhook = await deps.webhooks.findByKeyHash(sha256Hex(key));
      if (!webhook?.is_active) return undefined;
      const user = await deps.activeUser(webhook.user_id);
      if (!user) return undefined;
      return { keyId: webhook.id, user, scopes: ['read'], via: 'webhook_key' };
    },
  };
}

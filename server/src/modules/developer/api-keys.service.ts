import {
  API_KEY_PREFIX,
  API_KEY_RANDOM_LENGTH,
  API_KEY_SHOWN_LENGTH,
  API_KEYS_PER_USER_MAX,
  type ApiKey,
  type CreateApiKeyRequest,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Revocations } from '../../platform/auth/revocations.js';
import { randomBase62, sha256Hex } from '../../platform/auth/secure-random.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { invalidField, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { toApiKeyDto } from './api-keys.mapper.js';
import { canManageApiKey } from './api-keys.policy.js';
import type { ApiKeysRepository } from './api-keys.repository.js';

export interface ApiKeysServiceDeps {
  scope: DbScope;
  keys: ApiKeysRepository;
  events: EventBus;
  clock: Clock;
  revocations: Revocations;
  /** The users area's account lock (PeopleReader.lockAccount), held until the transaction ends. */
  people: { lockAccount(userId: string): Promise<void> };
}

/** Creating, listing and revoking a user's developer keys. Using a key is api-key-verifier.ts. */
export class ApiKeysService {
  constructor(private readonly deps: ApiKeysServiceDeps) {}

  async list(actor: UserActor): Promise<{ api_keys: ApiKey[] }> {
    return { api_keys: (await this.deps.keys.listOfUser(actor.id)).map(toApiKeyDto) };
  }

  async create(actor: UserActor, body: CreateApiKeyRequest): Promise<{ api_key: ApiKey; key: string }> {
    const { scope, keys, events, clock, people } = this.deps;
    const expiresAt = body.expires_at === undefined ? null : new Date(body.expires_at);
    if (expiresAt !== null && expiresAt.getTime() <= clock.now().getTime())
      throw invalidField('expires_at', 'must be in the future', body.expires_at);
    const key = API_KEY_PREFIX + randomBase62(API_KEY_RANDOM_LENGTH);
    const prefix = key.slice(0, API_KEY_SHOWN_LENGTH);
    const row = await scope.transaction(async () => {
      // the owner's account row is held until commit, so two creations cannot both take the last place
      await people.lockAccount(actor.id);
      if ((await keys.countOfUser(actor.id)) >= API_KEYS_PER_USER_MAX) {
        throw limitReached(`At most ${API_KEYS_PER_USER_MAX} API keys per user: revoke one first`);
      }
      const created = await keys.insert({
        user_id: actor.id,
        name: body.name,
        prefix,
        key_hash: sha256Hex(key),
        scopes: body.scopes,
        expires_at: expiresAt,
      });
      await events.record(actor, 'api_key.created', {
        subject: { resource: 'api_key', id: created.id },
        data: {
          name: created.name,
          prefix,
          scopes: created.scopes,
          expires_at: created.expires_at?.toISOString() ?? null,
        },
      });
      return created;
    });
    return { api_key: toApiKeyDto(row), key };
  }

  async revoke(actor: UserActor, id: string): Promise<{ message: string }> {
    const { scope, keys, events, revocations } = this.deps;
    await scope.transaction(async () => {
      const key = await keys.find(id);
      if (!key || !canManageApiKey(actor, key)) throw notFound('API key');
      await keys.remove(id);
      // what was opened with the key, or with a token minted from it, ends now (live sockets)
      revocations.revoke({ userId: key.user_id, keyId: id, reason: 'key_revoked' });
      await events.record(actor, 'api_key.revoked', {
        subject: { resource: 'api_key', id },
        data: { name: key.name, prefix: key.prefix },
      });
    });
    return { message: 'API key revoked' };
  }

  async exportFor(owner: UserActor): Promise<{ api_keys: ApiKey[] }> {
    return this.list(owner);
  }
}

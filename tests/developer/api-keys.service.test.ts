import { API_KEYS_PER_USER_MAX } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceApiKey, serviceUser } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of developer API keys, called on the service with an Actor: what creation shows, whose
// a key is, how many a user holds, and when a key stops opening anything. api-keys.test.ts holds
// the routes, the scopes at work on requests and the hourly limits.
// the services' clock moves on demand (a key's expiry); no test waits for it
let offsetMs = 0;
const suite = useServices({}, { clock: { now: () => new Date(Date.now() + offsetMs) } });
const notFound = { status: 404, code: 'NOT_FOUND' };

/** The holder of a developer key, as the authenticator resolves it (undefined: the key opens nothing). */
const holderOf = (key: string) => suite.areas.developer.keyVerifiers![0]!.verify(key);

describe('API keys (service)', () => {
  it('creation shows the whole key once; the list shows its prefix, name and scopes, newest first', async () => {
    const { apiKeys } = suite.areas.developer.services;
    const owner = await serviceUser(suite);
    const first = await serviceApiKey(suite, owner, { name: 'CI', scopes: ['read', 'write'] });
    const second = await serviceApiKey(suite, owner, { name: 'Backup' });
    expect(first.key.startsWith('riff_')).toBe(true);
    expect(first.key.startsWith(first.api_key.prefix)).toBe(true);
    expect(first.api_key).toMatchObject({
      name: 'CI',
      scopes: ['read', 'write'],
      expires_at: null,
      last_used_at: null,
    });
    const { api_keys: listed } = await apiKeys.list(owner);
    expect(listed.map((key) => key.name)).toEqual(['Backup', 'CI']);
    expect(JSON.stringify(listed)).not.toContain(first.key);
    expect(JSON.stringify(listed)).not.toContain(second.key);
  });

  it('a key acts as its owner with the scopes it was given', async () => {
    const owner = await serviceUser(suite);
    const { api_key: created, key } = await serviceApiKey(suite, owner, { scopes: ['write'] });
    expect(await holderOf(key)).toMatchObject({ keyId: created.id, user: { id: owner.id }, scopes: ['write'] });
    expect(await holderOf(`${key}x`)).toBeUndefined();
  });

  it('an expiry must be in the future; once it passes the key opens nothing, and it is still listed', async () => {
    const { apiKeys } = suite.areas.developer.services;
    const owner = await serviceUser(suite);
    const past = new Date(Date.now() - 60_000).toISOString();
    expect(await refusal(serviceApiKey(suite, owner, { expires_at: past }))).toEqual({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: ['expires_at'],
    });
    const soon = new Date(Date.now() + 60_000).toISOString();
    const { api_key: created, key } = await serviceApiKey(suite, owner, { expires_at: soon });
    expect(await holderOf(key)).toBeDefined();
    offsetMs = 61_000;
    try {
      expect(await holderOf(key)).toBeUndefined();
      expect((await apiKeys.list(owner)).api_keys.map((listed) => listed.id)).toEqual([created.id]);
    } finally {
      offsetMs = 0;
    }
  });

  it(`a user holds at most ${API_KEYS_PER_USER_MAX} keys; revoking one makes room`, async () => {
    const { apiKeys } = suite.areas.developer.services;
    const owner = await serviceUser(suite);
    const held = [];
    for (let n = 0; n < API_KEYS_PER_USER_MAX; n++) held.push(await serviceApiKey(suite, owner, { name: `Key ${n}` }));
    expect(await refusal(serviceApiKey(suite, owner))).toMatchObject({ status: 400, code: 'LIMIT_REACHED' });
    await apiKeys.revoke(owner, held[0]!.api_key.id);
    expect((await serviceApiKey(suite, owner, { name: 'Room again' })).api_key.name).toBe('Room again');
  });

  it('revoking stops the key at once; another user’s key, an admin’s view included, does not exist for the caller', async () => {
    const { apiKeys } = suite.areas.developer.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const kept = await serviceApiKey(suite, owner, { name: 'Kept' });
    const gone = await serviceApiKey(suite, owner, { name: 'Gone' });
    expect(await refusal(apiKeys.revoke(other, kept.api_key.id))).toMatchObject(notFound);
    expect(await refusal(apiKeys.revoke(admin, kept.api_key.id))).toMatchObject(notFound);
    expect((await apiKeys.list(admin)).api_keys).toEqual([]);
    expect(await holderOf(kept.key)).toBeDefined();
    expect(await apiKeys.revoke(owner, gone.api_key.id)).toEqual({ message: 'API key revoked' });
    expect(await holderOf(gone.key)).toBeUndefined();
    expect(await refusal(apiKeys.revoke(owner, gone.api_key.id))).toMatchObject(notFound);
    expect((await apiKeys.list(owner)).api_keys.map((key) => key.name)).toEqual(['Kept']);
  });

  it('a key opens nothing once its owner may no longer act, and the export lists keys without them', async () => {
    const { apiKeys } = suite.areas.developer.services;
    const owner = await serviceUser(suite);
    const { api_key: created, key } = await serviceApiKey(suite, owner, { scopes: ['read', 'admin'] });
    const exported = await apiKeys.exportFor(owner);
    expect(exported.api_keys).toMatchObject([{ id: created.id, scopes: ['read', 'admin'] }]);
    expect(JSON.stringify(exported)).not.toContain(key);
    expect(await holderOf(key)).toBeDefined();
    await suite.areas.users.services.accounts.deactivate(owner, owner.id);
    expect(await holderOf(key)).toBeUndefined();
  });
});

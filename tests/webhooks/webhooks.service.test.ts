import { WEBHOOKS_PER_USER_MAX } from '@riff/contract';
import { describe, expect, it } from 'vitest';
import { refusal } from '../support/refusal.js';
import { serviceUser, serviceWebhook } from '../support/service-factories.js';
import { useServices } from '../support/services.js';

// The rules of webhook subscriptions, called on the service with an Actor: what a registration
// keeps, whose a webhook is, how many a user holds, and what its key opens. webhooks.test.ts and
// webhook-urls.test.ts hold the routes, the deliveries to a real receiver and the URL guard itself.
// No test here sends anything: the factory's address answers nothing and its event is never raised.
const suite = useServices();
const notFound = { status: 404, code: 'NOT_FOUND' };

/** The holder of a webhook key, as the authenticator resolves it (undefined: the key opens nothing). */
const holderOf = (key: string) => suite.areas.webhooks.keyVerifiers![0]!.verify(key);

describe('webhooks (service)', () => {
  it('registration shows the key and the secret once; the webhook shows only the key’s prefix', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const created = await serviceWebhook(suite, owner, { description: 'Deploys' });
    expect(created.api_key.startsWith('whk_')).toBe(true);
    expect(created.secret).toBeTruthy();
    expect(created.webhook).toMatchObject({
      url: 'https://93.184.216.34/riff-hooks',
      events: ['track.created'],
      description: 'Deploys',
      is_active: true,
      consecutive_failures: 0,
      disabled_reason: null,
      last_delivery_at: null,
    });
    expect(created.api_key.startsWith(created.webhook.api_key_prefix)).toBe(true);
    const { webhooks: listed } = await webhooks.list(owner);
    expect(listed).toEqual([created.webhook]);
    expect(JSON.stringify(listed)).not.toContain(created.api_key);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
  });

  it('the event list keeps each type once in the order given, and "*" stands for all of them', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const some = await serviceWebhook(suite, owner, { events: ['user.followed', 'track.liked', 'user.followed'] });
    expect(some.webhook.events).toEqual(['user.followed', 'track.liked']);
    const all = await serviceWebhook(suite, owner, { events: ['track.liked', '*'] });
    expect(all.webhook.events).toEqual(['*']);
    // an empty description is none
    const { webhook } = await webhooks.update(owner, some.webhook.id, { description: '', events: ['*'] });
    expect(webhook).toMatchObject({ description: null, events: ['*'] });
  });

  it('a URL that is not https, names a private address or carries credentials is refused, on update too', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const refusedUrl = { status: 400, code: 'INVALID_WEBHOOK_URL', fields: ['url'] };
    for (const url of ['http://93.184.216.34/hook', 'https://10.0.0.8/hook', 'https://user:pw@93.184.216.34/hook'])
      expect(await refusal(serviceWebhook(suite, owner, { url }))).toEqual(refusedUrl);
    expect((await webhooks.list(owner)).webhooks).toEqual([]);
    const { webhook } = await serviceWebhook(suite, owner);
    expect(await refusal(webhooks.update(owner, webhook.id, { url: 'https://127.0.0.1/hook' }))).toEqual(refusedUrl);
    expect((await webhooks.get(owner, webhook.id)).webhook.url).toBe(webhook.url);
  });

  it('a webhook is its owner’s alone: for anyone else, an admin included, it does not exist', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const other = await serviceUser(suite);
    const admin = await serviceUser(suite, { admin: true });
    const { webhook } = await serviceWebhook(suite, owner);
    for (const caller of [other, admin]) {
      expect(await refusal(webhooks.get(caller, webhook.id))).toMatchObject(notFound);
      expect(await refusal(webhooks.update(caller, webhook.id, { is_active: false }))).toMatchObject(notFound);
      expect(await refusal(webhooks.remove(caller, webhook.id))).toMatchObject(notFound);
      expect(await refusal(webhooks.regenerateKey(caller, webhook.id))).toMatchObject(notFound);
      expect(await refusal(webhooks.rotateSecret(caller, webhook.id))).toMatchObject(notFound);
      expect(await refusal(webhooks.deliveries(caller, webhook.id, { page: 1, limit: 10 }))).toMatchObject(notFound);
      expect((await webhooks.list(caller)).webhooks).toEqual([]);
    }
    expect((await webhooks.get(owner, webhook.id)).webhook.is_active).toBe(true);
  });

  it(`a user holds at most ${WEBHOOKS_PER_USER_MAX} webhooks; deleting one makes room`, async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const held = [];
    for (let n = 0; n < WEBHOOKS_PER_USER_MAX; n++) held.push((await serviceWebhook(suite, owner)).webhook);
    expect(await refusal(serviceWebhook(suite, owner))).toMatchObject({ status: 400, code: 'LIMIT_REACHED' });
    // the limit is per user
    expect((await serviceWebhook(suite, await serviceUser(suite))).webhook.is_active).toBe(true);
    expect(await webhooks.remove(owner, held[0]!.id)).toEqual({ message: 'Webhook deleted' });
    expect(await refusal(webhooks.get(owner, held[0]!.id))).toMatchObject(notFound);
    expect((await serviceWebhook(suite, owner)).webhook.id).toBeTruthy();
  });

  it('the key reads as its owner with read scope while the webhook is active; a regenerated key replaces it at once', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const { webhook, api_key: key } = await serviceWebhook(suite, owner);
    expect(await holderOf(key)).toMatchObject({ keyId: webhook.id, user: { id: owner.id }, scopes: ['read'] });
    await webhooks.update(owner, webhook.id, { is_active: false });
    expect(await holderOf(key)).toBeUndefined();
    await webhooks.update(owner, webhook.id, { is_active: true });
    const renewed = await webhooks.regenerateKey(owner, webhook.id);
    expect(renewed.api_key).not.toBe(key);
    expect(await holderOf(key)).toBeUndefined();
    expect((await holderOf(renewed.api_key))?.user.id).toBe(owner.id);
    expect((await webhooks.get(owner, webhook.id)).webhook.api_key_prefix).toBe(
      renewed.api_key.slice(0, webhook.api_key_prefix.length),
    );
  });

  it('a rotated secret is new, and the reply says until when the previous one still signs', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const { webhook, secret } = await serviceWebhook(suite, owner);
    const rotated = await webhooks.rotateSecret(owner, webhook.id);
    expect(rotated.secret).not.toBe(secret);
    const until = /until (\S+)$/.exec(rotated.message)?.[1];
    const overlapHours = (new Date(until!).getTime() - Date.now()) / 3_600_000;
    expect(overlapHours).toBeGreaterThan(23.9);
    expect(overlapHours).toBeLessThanOrEqual(24);
  });

  it('an inactive webhook is not tested (400 WEBHOOK_INACTIVE); a new one has no deliveries and counts in the stats', async () => {
    const { webhooks } = suite.areas.webhooks.services;
    const owner = await serviceUser(suite);
    const { webhook } = await serviceWebhook(suite, owner, { is_active: false });
    await serviceWebhook(suite, owner);
    expect(await refusal(webhooks.test(owner, webhook.id))).toMatchObject({ status: 400, code: 'WEBHOOK_INACTIVE' });
    expect(await webhooks.deliveries(owner, webhook.id, { page: 1, limit: 10 })).toMatchObject({
      deliveries: [],
      pagination: { total: 0 },
    });
    expect(await refusal(webhooks.redeliver(owner, webhook.id, '00000000-0000-4000-8000-000000000000'))).toMatchObject(
      notFound,
    );
    expect((await webhooks.stats(owner)).stats).toMatchObject({
      webhooks_total: 2,
      webhooks_active: 1,
      deliveries: { total: 0 },
      success_rate: 0,
    });
  });
});

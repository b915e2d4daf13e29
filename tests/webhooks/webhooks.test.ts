import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_FAILURES_MAX } from '@riff/contract';
import { expirePreviousWebhookSecret } from '../support/backdate.js';
import { createTrack, createUser } from '../support/factories.js';
import { waitForMail } from '../support/mail.js';
import { setWebhookFailures } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { createPlaylist } from '../playlists/playlist-helpers.js';
import { startReceiver, type Receiver } from './receiver.js';
import { webhookHelpers } from './webhook-helpers.js';

// loopback receivers over http: the address rule is lifted here (webhook-urls.test.ts keeps it);
// retries come at once, three attempts in all; a receiver has 1 s to answer
const suite = useTestServer({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0,0',
  WEBHOOK_TIMEOUT_MS: '1000',
});
const db = () => suite.server.riff.database.db;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const { register, ownReceiver, deliveries, settled } = webhookHelpers(suite, () => receiver.url);

describe('registering and managing webhooks', () => {
  it('shows the key and secret once; lists, reads, changes and deletes; another user gets 404; the 21st is 400 LIMIT_REACHED', async () => {
    const owner = await createUser(suite.server);
    const other = await createUser(suite.server);
    const created = await register(owner, {
      events: ['track.created', 'comment.created', 'track.created'],
      description: 'CMS',
    });
    expect(created.api_key).toMatch(/^whk_[A-Za-z0-9]{32}$/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);
    expect(created.webhook).toMatchObject({
      url: receiver.url,
      events: ['track.created', 'comment.created'],
      description: 'CMS',
      is_active: true,
      consecutive_failures: 0,
    });
    expect(created.webhook.api_key_prefix).toBe(created.api_key.slice(0, 12));

    const listed = await suite.http.get('/webhooks', { token: owner.token });
    expect(listed.body.data.webhooks.map((w: { id: string }) => w.id)).toEqual([created.webhook.id]);
    expect(listed.text).not.toContain(created.api_key);
    expect(listed.text).not.toContain(created.secret);
    // stored so that they cannot be read back
    const row = await db()
      .selectFrom('webhooks')
      .selectAll()
      .where('id', '=', created.webhook.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    expect(JSON.stringify(row)).not.toContain(created.api_key);

    const changed = await suite.http.put(`/webhooks/${created.webhook.id}`, {
      token: owner.token,
      body: { events: ['*', 'track.deleted'], description: null },
    });
    expect(changed.body.data.webhook).toMatchObject({ events: ['*'], description: null });

    for (const [method, path] of [
      ['get', ''],
      ['put', ''],
      ['delete', ''],
      ['post', '/regenerate-key'],
      ['post', '/rotate-secret'],
      ['post', '/test'],
      ['get', '/deliveries'],
    ] as const) {
      const reply = await (suite.http as any)[method](`/webhooks/${created.webhook.id}${path}`, {
        token: other.token,
        body: method === 'put' ? { is_active: false } : undefined,
      });
      expect([reply.status, reply.body.error?.code], `${method} ${path}`).toEqual([404, 'NOT_FOUND']);
    }

    expect((await suite.http.delete(`/webhooks/${created.webhook.id}`, { token: owner.token })).status).toBe(200);
    expect((await suite.http.get(`/webhooks/${created.webhook.id}`, { token: owner.token })).status).toBe(404);

    for (let i = 0; i < 20; i += 1) await register(owner, { events: ['track.created'] });
    const refused = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: receiver.url, events: ['*'] },
    });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'LIMIT_REACHED']);
  });

  it('counts the limit under a lock: with room for 2, two of 6 racing registrations succeed', async () => {
    const owner = await createUser(suite.server);
    for (let i = 0; i < 18; i += 1) await register(owner, { events: ['track.created'] });
    const racing = await Promise.all(
      Array.from({ length: 6 }, () =>
        suite.http.post('/webhooks', { token: owner.token, body: { url: receiver.url, events: ['*'] } }),
      ),
    );
    expect(racing.map((reply) => reply.status).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    expect(
      racing.filter((reply) => reply.status === 400).every((reply) => reply.body.error.code === 'LIMIT_REACHED'),
    ).toBe(true);
    expect((await suite.http.get('/webhooks', { token: owner.token })).body.data.webhooks).toHaveLength(20);
  });

  it('refuses bad bodies with 400 and stores nothing', async () => {
    const owner = await createUser(suite.server);
    for (const body of [
      {},
      { url: receiver.url },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['track.exploded'] },
      { url: receiver.url, events: ['*'], description: 'x'.repeat(501) },
      { url: 'x'.repeat(2049), events: ['*'] },
    ]) {
      const reply = await suite.http.post('/webhooks', { token: owner.token, body });
      expect([reply.status, reply.body.error.code], JSON.stringify(body).slice(0, 80)).toEqual([
        400,
        'VALIDATION_FAILED',
      ]);
    }
    const ftp = await suite.http.post('/webhooks', {
      token: owner.token,
      body: { url: 'ftp://127.0.0.1/x', events: ['*'] },
    });
    expect([ftp.status, ftp.body.error.code]).toEqual([400, 'INVALID_WEBHOOK_URL']);
    expect((await suite.http.get('/webhooks', { token: owner.token })).body.data.webhooks).toEqual([]);
  });
});

describe('deliveries', () => {
  it('sends an event to the user it concerns, signed as Standard Webhooks says, with the resource as they read it and the actor', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const { webhook, secret } = await register(
      owner,
      { events: ['track.created', 'track.liked', 'user.followed', 'playlist.track_added'] },
      own.url,
    );
    const outsider = await register(fan, { events: ['*'] }, own.url);

    const track = await createTrack(suite.server, owner, { title: 'Signal fires' });
    expect((await suite.http.post(`/tracks/${track.id}/like`, { token: fan.token })).status).toBe(200);
    expect((await suite.http.post(`/users/${owner.id}/follow`, { token: fan.token })).status).toBe(200);
    const playlist = await createPlaylist(owner, { title: 'Hooks' });
    expect(
      (await suite.http.post(`/playlists/${playlist.id}/tracks`, { token: owner.token, body: { track_id: track.id } }))
        .status,
    ).toBe(200);

    const received = await own.waitFor(4);
    await new Promise((resolve) => setTimeout(resolve, 200)); // nothing else is on its way
    const messages = own.received.map((request) => ({ request, message: own.verify(request, secret) }));
    expect(messages.map(({ message }) => message.type).sort()).toEqual([
      'playlist.track_added',
      'track.created',
      'track.liked',
      'user.followed',
    ]);
    // the fan's own webhook hears nothing: none of these concern them
    expect(received.every((request) => String(request.headers['webhook-id']).startsWith('msg_'))).toBe(true);
    expect((await deliveries(fan, outsider.webhook.id)).deliveries).toEqual([]);

    const created = messages.find(({ message }) => message.type === 'track.created')!;
    expect(created.request.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': 'Riff-Webhooks/1.2.0',
    });
    expect(Math.abs(Number(created.request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
    expect(created.request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const asOwner = (await suite.http.get(`/tracks/${track.id}`, { token: owner.token })).body.data.track;
    // the track as its owner reads it from the API (the owner's figures included); fields the media jobs change since may differ
    expect(Object.keys(created.message.data.track).sort()).toEqual(Object.keys(asOwner).sort());
    expect(created.message.data.track).toMatchObject({
      id: track.id,
      title: 'Signal fires',
      creator_id: owner.id,
      is_public: true,
      play_count: 0,
    });
    expect(created.message.data.actor).toEqual({ id: owner.id, username: owner.username });

    const liked = messages.find(({ message }) => message.type === 'track.liked')!.message;
    expect(liked.data).toMatchObject({ actor: { id: fan.id, username: fan.username }, track: { id: track.id } });
    const followed = messages.find(({ message }) => message.type === 'user.followed')!.message;
    expect(followed.data).toMatchObject({ actor: { id: fan.id }, follower: { id: fan.id, username: fan.username } });
    const added = messages.find(({ message }) => message.type === 'playlist.track_added')!.message;
    expect(added.data).toMatchObject({ track_id: track.id, playlist: { id: playlist.id, title: 'Hooks' } });

    // a forged body fails verification
    expect(() =>
      own.verify({ ...created.request, body: created.request.body.replace('Signal', 'Forged') }, secret),
    ).toThrow();
    const log = await deliveries(owner, webhook.id);
    expect(log.deliveries.every((d) => d.status === 'succeeded' && d.attempts === 1 && d.response_status === 200)).toBe(
      true,
    );
  });

  it('retries a failed delivery with the same webhook-id; a redirect is a failure and is not followed', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook, secret } = await register(owner, { events: ['track.created'] }, own.url);
    own.answer(
      { status: 302, headers: { location: `${own.url}/elsewhere` } },
      { status: 500, body: 'x'.repeat(5000) },
      204,
    );
    await createTrack(suite.server, owner);
    const requests = await own.waitFor(3);
    expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(
      requests.every(
        (request) =>
          request.headers['webhook-id'] !== undefined && own.verify(request, secret).type === 'track.created',
      ),
    ).toBe(true);
    // the redirect was not followed
    expect(requests.map((request) => request.url)).toEqual(['/hook', '/hook', '/hook']);
    const [delivery] = await settled(owner, webhook.id, (list) => list[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({ attempts: 3, response_status: 204, error: null, next_attempt_at: null });
    expect(delivery.delivered_at).not.toBeNull();

    // every attempt fails: the delivery ends failed after the schedule (three attempts)
    own.answer(500, 500, 500);
    await createTrack(suite.server, owner);
    await own.waitFor(6);
    const failed = (await settled(owner, webhook.id, (list) => list.length === 2 && list[0].status === 'failed'))[0];
    expect(failed).toMatchObject({ attempts: 3, response_status: 500, error: 'HTTP 500', next_attempt_at: null });
    const webhookNow = (await suite.http.get(`/webhooks/${webhook.id}`, { token: owner.token })).body.data.webhook;
    expect(webhookNow.consecutive_failures).toBe(3);

    // a redirect's log says so; an answer longer than 1 KiB is cut
    own.answer(
      { status: 301, headers: { location: 'http://127.0.0.1:1/' } },
      { status: 500, body: 'y'.repeat(5000) },
      { status: 500, body: 'y'.repeat(5000) },
    );
    await createTrack(suite.server, owner);
    const third = (await settled(owner, webhook.id, (list) => list.length === 3 && list[0].status === 'failed'))[0];
    expect(third.response_excerpt).toBe('y'.repeat(1024));
    expect(own.received.filter((request) => request.headers.host?.endsWith(':1'))).toEqual([]);
  });

  it(`disables a webhook after ${WEBHOOK_FAILURES_MAX} failures in a row, mails its owner and audits it; re-activating clears the count`, async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook } = await register(owner, { events: ['track.created'] }, own.url);
    await setWebhookFailures(suite.server, webhook.id, WEBHOOK_FAILURES_MAX - 1);
    own.answer(503);
    const tested = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(tested.status).toBe(200);
    expect(tested.body.data.delivery).toMatchObject({
      event_type: 'webhook.test',
      status: 'failed',
      attempts: 1,
      response_status: 503,
    });

    const disabled = (await suite.http.get(`/webhooks/${webhook.id}`, { token: owner.token })).body.data.webhook;
    expect(disabled).toMatchObject({ is_active: false, consecutive_failures: WEBHOOK_FAILURES_MAX });
    expect(disabled.disabled_reason).toContain(`${WEBHOOK_FAILURES_MAX} failed deliveries`);
    const mail = await waitForMail(suite.server.outboxDir, owner.email, 'webhook-disabled');
    expect(mail.text).toContain(own.url);
    const audit = await suite.http.get('/audit/activity?limit=50', { token: owner.token });
    expect(JSON.stringify(audit.body.data)).toContain('webhook.disabled');

    // an inactive webhook: no test, no deliveries
    const refused = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect([refused.status, refused.body.error.code]).toEqual([400, 'WEBHOOK_INACTIVE']);
    const before = own.received.length;
    await createTrack(suite.server, owner);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(own.received.length).toBe(before);

    const again = await suite.http.put(`/webhooks/${webhook.id}`, { token: owner.token, body: { is_active: true } });
    expect(again.body.data.webhook).toMatchObject({ is_active: true, consecutive_failures: 0, disabled_reason: null });
    const ok = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(ok.body.data.delivery).toMatchObject({ status: 'succeeded', response_status: 200 });
  });

  it('after a secret rotation, signs with both secrets for 24 hours, then with the new one only', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook, secret: first } = await register(owner, {}, own.url);
    const rotated = await suite.http.post(`/webhooks/${webhook.id}/rotate-secret`, { token: owner.token });
    expect(rotated.status).toBe(200);
    const second = rotated.body.data.secret as string;
    expect(second).not.toBe(first);

    await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    const [overlap] = await own.waitFor(1);
    expect(own.verify(overlap!, first).type).toBe('webhook.test');
    expect(own.verify(overlap!, second).type).toBe('webhook.test');
    expect(String(overlap!.headers['webhook-signature']).split(' ')).toHaveLength(2);

    await expirePreviousWebhookSecret(suite.server, webhook.id);
    await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    const [, after] = await own.waitFor(2);
    expect(own.verify(after!, second).type).toBe('webhook.test');
    expect(() => own.verify(after!, first)).toThrow();
  });

  it('a slow receiver holds a worker, never a request: the attempt ends at the timeout', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook } = await register(owner, { events: ['track.created'] }, own.url);
    let release: (() => void) | undefined;
    own.answer((res) => {
      release = () => res.end();
    });
    own.answer(200);
    await createTrack(suite.server, owner);
    await own.waitFor(1);
    const started = performance.now();
    expect((await suite.http.get('/webhooks', { token: owner.token })).status).toBe(200);
    expect(performance.now() - started).toBeLessThan(500);
    // the first attempt timed out (1 s here), the retry succeeded
    const [delivery] = await settled(owner, webhook.id, (list) => list[0]?.status === 'succeeded');
    expect(delivery.attempts).toBe(2);
    release?.();
  });
});

describe('the webhook key, the log, redelivery, the test event and the stats', () => {
  it('the key reads as the owner with read scope only; a regenerated key replaces it at once; an inactive webhook’s key is 401', async () => {
    const owner = await createUser(suite.server);
    const created = await register(owner, { events: ['track.created'] });
    const withKey = (key: string) => ({ headers: { 'x-api-key': key } });

    const read = await suite.http.get('/webhooks', withKey(created.api_key));
    expect(read.status).toBe(200);
    expect(read.body.data.webhooks[0].id).toBe(created.webhook.id);
    expect(read.headers.get('x-ratelimit-limit')).toBe('1000');
    const me = await suite.http.get('/users/me', { headers: { authorization: `Bearer ${created.api_key}` } });
    expect(me.body.data.profile.id).toBe(owner.id);
    const write = await suite.http.post('/playlists', { ...withKey(created.api_key), body: { title: 'Nope' } });
    expect([write.status, write.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const security = await suite.http.post(`/webhooks/${created.webhook.id}/rotate-secret`, withKey(created.api_key));
    expect([security.status, security.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);

    const regenerated = await suite.http.post(`/webhooks/${created.webhook.id}/regenerate-key`, { token: owner.token });
    expect(regenerated.body.data.api_key).toMatch(/^whk_/);
    expect((await suite.http.get('/webhooks', withKey(created.api_key))).status).toBe(401);
    expect((await suite.http.get('/webhooks', withKey(regenerated.body.data.api_key))).status).toBe(200);

    await suite.http.put(`/webhooks/${created.webhook.id}`, { token: owner.token, body: { is_active: false } });
    expect((await suite.http.get('/webhooks', withKey(regenerated.body.data.api_key))).status).toBe(401);
  });

  it('logs deliveries with filters and pages, redelivers the same message, tests at once, and counts it all', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook, secret } = await register(owner, {}, own.url);
    own.answer(500);
    const failedTest = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(failedTest.body.data).toMatchObject({
      message: 'The receiver did not accept the test event',
      delivery: { status: 'failed', attempts: 1 },
    });
    const okTest = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(okTest.body.data.delivery.status).toBe('succeeded');
    const [first] = await own.waitFor(2);
    expect(own.verify(first!, secret).data).toMatchObject({ webhook_id: webhook.id, actor: { id: owner.id } });

    expect((await deliveries(owner, webhook.id)).pagination.total).toBe(2);
    expect((await deliveries(owner, webhook.id, '?status=failed')).deliveries.map((d) => d.id)).toEqual([
      failedTest.body.data.delivery.id,
    ]);
    expect((await deliveries(owner, webhook.id, '?event=track.created')).deliveries).toEqual([]);
    expect((await deliveries(owner, webhook.id, '?limit=1&page=2')).deliveries.map((d) => d.id)).toEqual([
      failedTest.body.data.delivery.id,
    ]);
    expect(
      (await suite.http.get(`/webhooks/${webhook.id}/deliveries?status=lost`, { token: owner.token })).status,
    ).toBe(400);

    const redelivered = await suite.http.post(
      `/webhooks/${webhook.id}/deliveries/${failedTest.body.data.delivery.id}/redeliver`,
      { token: owner.token },
    );
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data.delivery).toMatchObject({ id: failedTest.body.data.delivery.id, status: 'pending' });
    const [, , again] = await own.waitFor(3);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    await settled(owner, webhook.id, (list) => list.every((d) => d.status === 'succeeded'));
    const unknown = await suite.http.post(`/webhooks/${webhook.id}/deliveries/${webhook.id}/redeliver`, {
      token: owner.token,
    });
    expect(unknown.status).toBe(404);

    const stats = (await suite.http.get('/webhooks/stats', { token: owner.token })).body.data.stats;
    expect(stats).toMatchObject({
      webhooks_total: 1,
      webhooks_active: 1,
      deliveries: { total: 2, succeeded: 2, failed: 0, pending: 0 },
      success_rate: 1,
      last_24h: { succeeded: 2, failed: 0 },
      by_event: { 'webhook.test': 2 },
    });
    expect(stats.avg_duration_ms).toBeGreaterThanOrEqual(0);

    // the account export lists the webhooks, never their key or secret
    const exported = await suite.http.get('/users/me/export', { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.text).toContain(webhook.id);
    expect(exported.text).not.toContain(secret);
  });
});

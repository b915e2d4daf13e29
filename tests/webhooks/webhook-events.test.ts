import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backdateWebhookDelivery } from '../support/backdate.js';
import { createTrack, createUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { useTestServer } from '../support/suite.js';
import { createProduct } from '../marketplace/product-helpers.js';
import { startReceiver, type Receiver } from './receiver.js';

const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0' });

type Payload = { type: string; timestamp: string; data: Record<string, any> };

const receivers: Receiver[] = [];
const receiver = async () => {
  const started = await startReceiver();
  receivers.push(started);
  return started;
};
afterAll(async () => {
  for (const started of receivers) await started.close();
});

/** Polls until `found` gives a value (the workers deliver in the background). */
async function until<T>(found: () => T | undefined, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function subscribe(token: string, url: string, events: string[]) {
  const reply = await suite.http.post('/webhooks', { token, body: { url, events } });
  expect(reply.status).toBe(201);
  return reply.body.data as { webhook: { id: string }; secret: string };
}

describe('domain events become webhook events for the user they concern', () => {
  let ownerHook: Receiver;
  let fanHook: Receiver;
  beforeAll(async () => {
    ownerHook = await receiver();
    fanHook = await receiver();
  });

  it('track.created, track.processed, track.updated, track.liked, comment.created, playlist.created and track.deleted reach the track’s owner', async () => {
    const owner = await createUser(suite.server);
    const fan = await createUser(suite.server);
    const { secret } = await subscribe(owner.token, ownerHook.url, ['*']);
    // the fan asks for what happens to their own tracks: nothing of the owner's reaches them
    await subscribe(fan.token, fanHook.url, ['track.created', 'track.liked', 'comment.created']);

    const track = await createTrack(suite.server, owner, { title: 'Hooked' });
    expect(
      (await suite.http.put(`/tracks/${track.id}`, { token: owner.token, body: { title: 'Hooked (edit)' } })).status,
    ).toBe(200);
    expect((await suite.http.post(`/tracks/${track.id}/like`, { token: fan.token })).status).toBe(200);
    const comment = await suite.http.post(`/tracks/${track.id}/comments`, {
      token: fan.token,
      body: { content: 'nice' },
    });
    expect(comment.status).toBe(201);
    expect((await suite.http.post('/playlists', { token: owner.token, body: { title: 'Mine' } })).status).toBe(201);

    const wanted = [
      'track.created',
      'track.processed',
      'track.updated',
      'track.liked',
      'comment.created',
      'playlist.created',
    ];
    const payloads = await until(
      () => {
        const seen = ownerHook.received.map((request) => ownerHook.verify(request, secret) as Payload);
        return wanted.every((type) => seen.some((payload) => payload.type === type)) ? seen : undefined;
      },
      30_000,
      'every event delivered',
    );
    const byType = (type: string) => payloads.find((payload) => payload.type === type)!;

    expect(byType('track.created').data.track).toMatchObject({ id: track.id, creator_id: owner.id });
    expect(byType('track.created').data.actor).toEqual({ id: owner.id, username: owner.username });
    // the media pipeline's outcome, from the service itself
    expect(['ready', 'error']).toContain(byType('track.processed').data.stream_status);
    expect(byType('track.processed').data.actor).toBeNull();
    expect(byType('track.updated').data).toMatchObject({ fields: ['title'], track: { id: track.id } });
    expect(byType('track.liked').data).toMatchObject({
      actor: { id: fan.id, username: fan.username },
      track: { id: track.id },
    });
    // the comment as the owner reads it from the API
    expect(byType('comment.created').data).toMatchObject({
      actor: { id: fan.id },
      comment: comment.body.data.comment,
      track: { id: track.id },
    });
    expect(byType('playlist.created').data).toMatchObject({
      title: 'Mine',
      playlist: { title: 'Mine', user_id: owner.id },
    });
    expect(fanHook.received).toHaveLength(0);

    expect((await suite.http.delete(`/tracks/${track.id}`, { token: owner.token })).status).toBe(200);
    const deleted = await until(() =>
      ownerHook.received
        .map((request) => JSON.parse(request.body) as Payload)
        .find((payload) => payload.type === 'track.deleted'),
    );
    // the track is gone: its id is what is left to say
    expect(deleted.data).toMatchObject({ actor: { id: owner.id }, track: { id: track.id } });
  });

  it('order.created and order.completed reach the buyer, product.sold the seller; user.followed the followed user', async () => {
    const sellerHook = await receiver();
    const buyerHook = await receiver();
    const seller = await createUser(suite.server);
    const buyer = await createUser(suite.server);
    await subscribe(seller.token, sellerHook.url, ['product.sold', 'user.followed']);
    await subscribe(buyer.token, buyerHook.url, ['order.created', 'order.completed', 'order.refunded']);
    // a free product: its order completes at once
    const product = await createProduct(seller, { title: 'Free pack', price: 0 }, 'active');
    const order = await suite.http.post('/marketplace/orders', {
      token: buyer.token,
      body: { items: [{ product_id: product.id }] },
    });
    expect(order.status).toBe(201);
    expect((await suite.http.post(`/users/${seller.id}/follow`, { token: buyer.token })).status).toBe(200);

    const payloads = (hook: Receiver) => hook.received.map((request) => JSON.parse(request.body) as Payload);
    await until(
      () => (payloads(buyerHook).length >= 2 && payloads(sellerHook).length >= 2 ? true : undefined),
      15_000,
      'marketplace events',
    );
    expect(
      payloads(buyerHook)
        .map((payload) => payload.type)
        .sort(),
    ).toEqual(['order.completed', 'order.created']);
    expect(
      payloads(sellerHook)
        .map((payload) => payload.type)
        .sort(),
    ).toEqual(['product.sold', 'user.followed']);
    const sold = payloads(sellerHook).find((payload) => payload.type === 'product.sold')!;
    // the product and the order as their user reads them from the API
    expect(sold.data).toMatchObject({
      order_id: order.body.id,
      product: { id: product.id, title: 'Free pack', seller_id: seller.id },
    });
    const completed = payloads(buyerHook).find((payload) => payload.type === 'order.completed')!;
    expect(completed.data.order).toEqual(
      (await suite.http.get(`/marketplace/orders/${order.body.id}`, { token: buyer.token })).body,
    );
    const followed = payloads(sellerHook).find((payload) => payload.type === 'user.followed')!;
    expect(followed.data.follower).toMatchObject({ id: buyer.id, username: buyer.username });
  });
});

describe('the deliveries log is kept 30 days', () => {
  it('the periodic job removes older deliveries', async () => {
    const hook = await receiver();
    const owner = await createUser(suite.server);
    const { webhook } = await subscribe(owner.token, hook.url, ['*']);
    await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    const db = suite.server.riff.database.db;
    const [old] = await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute();
    await backdateWebhookDelivery(suite.server, old!.id, 31);
    expect(await runJob(suite.server, 'webhooks.prune-deliveries')).toBeGreaterThanOrEqual(1);
    const left = await db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', webhook.id).execute();
    expect(left.map((row) => row.id)).not.toContain(old!.id);
    expect(left).toHaveLength(1);
  });
});

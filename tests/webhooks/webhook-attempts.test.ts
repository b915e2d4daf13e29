import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTrack, createUser } from '../support/factories.js';
import { runJob } from '../support/jobs.js';
import { breakWebhookSecret, lapseDeliveryLease, strandWebhookDelivery } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { webhookHelpers } from './webhook-helpers.js';

// attempts of one delivery: leases, overtaken and lost jobs, faults of ours on the way. Loopback
// receivers over http; retries at once, three attempts in all; a receiver has 10 s to answer (the
// tests answer a held send themselves)
const suite = useTestServer({
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '0,0',
  WEBHOOK_TIMEOUT_MS: '10000',
});
const { register, ownReceiver, deliveries, settled } = webhookHelpers(suite, () => {
  throw new Error('each test here has a receiver of its own');
});

describe('one attempt at a time', () => {
  it('a redelivery asked for during a send, or a second job for it, sends nothing more; a job overtaken by a later attempt neither', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook } = await register(owner, { events: ['track.created'] }, own.url);
    let answer: (() => void) | undefined;
    own.answer((res) => {
      answer = () => res.writeHead(204).end();
    });
    await createTrack(suite.server, owner);
    await own.waitFor(1);
    const [sending] = (await deliveries(owner, webhook.id)).deliveries;
    expect(sending).toMatchObject({ status: 'pending', attempts: 0 });

    // while the first attempt waits for its answer: the same job again, and a redelivery through the API
    await runJob(suite.server, 'webhooks.deliver', { deliveryId: sending.id, attempt: 0 });
    const redelivered = await suite.http.post(`/webhooks/${webhook.id}/deliveries/${sending.id}/redeliver`, {
      token: owner.token,
    });
    expect(redelivered.status).toBe(202);
    await runJob(suite.server, 'webhooks.deliver', { deliveryId: sending.id, attempt: 0, redelivery: true });
    answer!();
    const [sent] = await settled(owner, webhook.id, (list) => list[0]?.status === 'succeeded');
    expect(sent).toMatchObject({ attempts: 1, response_status: 204 });

    // a retry queued before that attempt comes late: the count moved on, nothing is sent
    await runJob(suite.server, 'webhooks.deliver', { deliveryId: sending.id, attempt: 0 });
    expect(own.received).toHaveLength(1);
    expect((await deliveries(owner, webhook.id)).deliveries[0]).toMatchObject({ status: 'succeeded', attempts: 1 });

    // a redelivery afterwards makes its one attempt with the same webhook-id
    expect(
      (await suite.http.post(`/webhooks/${webhook.id}/deliveries/${sending.id}/redeliver`, { token: owner.token }))
        .status,
    ).toBe(202);
    const requests = await own.waitFor(2);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    const [again] = await settled(
      owner,
      webhook.id,
      (list) => list[0]?.attempts === 2 && list[0].status === 'succeeded',
    );
    expect(again.attempts).toBe(2);
    expect(own.received).toHaveLength(2);
  });

  it('a delivery whose job was lost with its worker is sent by the periodic resume; one with an attempt under way is left to it', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook, secret } = await register(owner, { events: ['track.created'] }, own.url);
    own.answer(204, 204);
    await createTrack(suite.server, owner);
    await createTrack(suite.server, owner);
    await own.waitFor(2);
    const [second, first] = await settled(
      owner,
      webhook.id,
      (list) => list.length === 2 && list.every((delivery) => delivery.status === 'succeeded'),
    );
    // as a worker that died in the middle of each send leaves them: pending, due 10 minutes ago, the first one's lease lapsed, the second's not
    await strandWebhookDelivery(suite.server, first.id, { dueMinutesAgo: 10, leaseEndsMinutesAgo: 9 });
    await strandWebhookDelivery(suite.server, second.id, { dueMinutesAgo: 10, leaseEndsMinutesAgo: -5 });

    // at least this one: on a database shared with other test files, theirs may be stalled too
    expect(await runJob(suite.server, 'webhooks.resume-deliveries')).toBeGreaterThanOrEqual(1);
    const requests = await own.waitFor(3);
    // the first message again, as signed for it
    expect(requests[2]!.headers['webhook-id']).toBe(first.message_id);
    expect(own.verify(requests[2]!, secret).type).toBe('track.created');
    const list = await settled(
      owner,
      webhook.id,
      (rows) => rows.find((row) => row.id === first.id)?.status === 'succeeded',
    );
    expect(list.find((row) => row.id === first.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(list.find((row) => row.id === second.id)).toMatchObject({ status: 'pending', attempts: 0 });
    expect(own.received).toHaveLength(3);
  });

  it('a send that outlives its lease is overtaken by the next attempt: that one’s result stands, the late one is not counted', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook } = await register(owner, { events: ['track.created'] }, own.url);
    let late: ServerResponse | undefined;
    own.answer((res) => {
      late = res;
    });
    const testing = suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    await own.waitFor(1);
    const [sending] = (await deliveries(owner, webhook.id)).deliveries;
    expect(sending).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 });

    // the receiver holds the send past its lease; the next job finds the lease lapsed and attempts it again
    await lapseDeliveryLease(suite.server, sending.id);
    own.answer(204);
    await runJob(suite.server, 'webhooks.deliver', { deliveryId: sending.id, attempt: 0 });
    expect(own.received).toHaveLength(2);
    expect((await deliveries(owner, webhook.id)).deliveries[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      response_status: 204,
    });

    // the first send's answer comes at last: a failure that changes nothing
    late!.writeHead(500).end();
    const tested = await testing;
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.data.delivery).toMatchObject({ status: 'succeeded', attempts: 1, response_status: 204 });
    expect((await deliveries(owner, webhook.id)).deliveries[0]).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      response_status: 204,
    });
    expect(
      (await suite.http.get(`/webhooks/${webhook.id}`, { token: owner.token })).body.data.webhook.consecutive_failures,
    ).toBe(0);
  });

  it('a fault of ours while sending (a secret that no longer opens) is a failed attempt: no 500, no delivery left pending, nothing sent', async () => {
    const own = await ownReceiver();
    const owner = await createUser(suite.server);
    const { webhook } = await register(owner, { events: ['track.created'] }, own.url);
    await breakWebhookSecret(suite.server, webhook.id);

    const tested = await suite.http.post(`/webhooks/${webhook.id}/test`, { token: owner.token });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.data.delivery).toMatchObject({
      status: 'failed',
      attempts: 1,
      response_status: null,
      error: 'The service could not send this message',
    });

    // a queued message takes its retries and ends failed, as for a receiver that never answers
    await createTrack(suite.server, owner);
    const list = await settled(owner, webhook.id, (rows) =>
      rows.some((row) => row.event_type === 'track.created' && row.status === 'failed'),
    );
    expect(list.find((row) => row.event_type === 'track.created')).toMatchObject({ status: 'failed', attempts: 3 });
    expect(own.received).toHaveLength(0);
    expect(
      (await suite.http.get(`/webhooks/${webhook.id}`, { token: owner.token })).body.data.webhook.consecutive_failures,
    ).toBe(4);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { runDueJobs } from '../support/jobs.js';
import { makeModerator } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';
import { expectStatus } from '../support/typed-api.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { webhookHelpers } from '../webhooks/webhook-helpers.js';

// A sanctioned account's webhooks: a warning is a webhook event to it (naming no staff member); once
// suspended, its webhook key is refused and nothing more is delivered to it.
const suite = useTestServer({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});
const { register, settled } = webhookHelpers(suite, () => receiver.url);

describe('webhooks of a sanctioned account', () => {
  it('a warning is delivered; a suspension stops the key and the deliveries', async () => {
    const moderator = await createUser(suite.server);
    await makeModerator(suite.server, moderator.id);
    const [user, fan] = await Promise.all([createUser(suite.server), createUser(suite.server)]);
    const hook = await register(user, { events: ['user.warned', 'user.suspended', 'user.followed'] });
    expect((await suite.http.get('/users/me', { headers: { 'x-api-key': hook.api_key } })).status).toBe(200);

    const warned = expectStatus(
      await moderator.api.sanctions.warn({ params: { id: user.id }, body: { reason: 'Spam links' } }),
      201,
    ).body.data.sanction;
    await runDueJobs(suite.server);
    const [message] = await receiver.waitFor(1);
    const body = JSON.parse(message!.body);
    expect(body).toMatchObject({
      type: 'user.warned',
      data: { actor: null, sanction_id: warned.id, reason: 'Spam links' },
    });
    expect(message!.body).not.toContain(moderator.id);

    expectStatus(
      await moderator.api.sanctions.suspend({
        params: { id: user.id },
        body: { reason: 'Again', until: new Date(Date.now() + 86_400_000).toISOString() },
      }),
      201,
    );
    expect((await suite.http.get('/users/me', { headers: { 'x-api-key': hook.api_key } })).status).toBe(401);
    expect((await suite.http.post(`/users/${user.id}/follow`, { token: fan.accessToken })).status).toBeLessThan(300);
    await runDueJobs(suite.server);
    // the owner reads their log again once the suspension is lifted
    expectStatus(await moderator.api.sanctions.unsuspend({ params: { id: user.id } }), 200);
    const back = await suite.http.post('/auth/login', { body: { email: user.email, password: user.password } });
    expect(back.status).toBe(200);
    const list = await settled({ ...user, token: back.body.token.access_token }, hook.webhook.id, (rows) =>
      rows.every((row) => row.status !== 'pending'),
    );
    expect(list.map((row) => row.event_type)).toEqual(['user.warned']);
    expect(receiver.received).toHaveLength(1);
  });
});

import { afterAll, expect } from 'vitest';
import type { TestUser } from '../support/factories.js';
import type { Suite } from '../support/suite.js';
import { startReceiver } from './receiver.js';

export interface Created {
  webhook: { id: string; api_key_prefix: string; is_active: boolean; events: string[] };
  api_key: string;
  secret: string;
}

/** Registering webhooks and reading their log through the API of a test file's server. */
export function webhookHelpers(suite: Suite, defaultUrl: () => string) {
  const onDone: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of onDone) await close();
  });

  async function register(owner: TestUser, body: Record<string, unknown> = {}, url = defaultUrl()): Promise<Created> {
    const reply = await suite.http.post('/webhooks', { token: owner.token, body: { url, events: ['*'], ...body } });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data;
  }

  /** A receiver of its own for one test, so that counts are that test's. */
  async function ownReceiver() {
    const own = await startReceiver();
    onDone.push(own.close);
    return own;
  }

  const deliveries = async (owner: TestUser, webhookId: string, query = '') => {
    const reply = await suite.http.get(`/webhooks/${webhookId}/deliveries${query}`, { token: owner.token });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data as { deliveries: any[]; pagination: { total: number } };
  };

  /** Waits until the webhook's deliveries match (the workers send them). */
  async function settled(owner: TestUser, webhookId: string, done: (list: any[]) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const list = (await deliveries(owner, webhookId)).deliveries;
      if (done(list)) return list;
      if (Date.now() > deadline) throw new Error(`deliveries not settled: ${JSON.stringify(list)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  return { register, ownReceiver, deliveries, settled };
}

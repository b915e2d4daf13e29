import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/platform/logging/logger.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createRedis, faultSuiteEnabled, waitFor, type RedisInstance } from './fault-services.js';
import { startLoad, tally } from './load.js';

describe.skipIf(!faultSuiteEnabled)('Redis going away under load', () => {
  let redis: RedisInstance;
  let server: TestServer;
  const logLines: string[] = [];
  const logged = (text: string) => logLines.filter((line) => line.includes(text)).length;
  // the rate limits and the live sessions' fan-out each say so once per outage, in their own words
  const LIMITS_DOWN = 'Redis is unreachable: rate limits';
  const LIVE_DOWN = 'Redis is unreachable: live session updates';

  beforeAll(async () => {
    redis = await createRedis();
    const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
    server = await startTestServer({ REDIS_URL: redis.url, RIFF_TEST_PRISM_PROXY: '0' }, { logger });
  });

  afterAll(async () => {
    await server?.close();
    await redis?.destroy();
  });

  it('fails no request and stalls none: rate limits continue in memory, logged once per outage', {
    timeout: 60_000,
  }, async () => {
    let sent = 0;
    const load = startLoad(server.directUrl, 6, () => {
      sent++;
      if (sent % 5 === 0) {
        // login attempts go through the per-account and per-address limiters too
        const body = JSON.stringify({ email: `nobody-${sent % 3}@example.test`, password: 'not the password' });
        return {
          path: '/api/v1/auth/login',
          init: { method: 'POST', body, headers: { 'content-type': 'application/json' } },
        };
      }
      return { path: sent % 2 ? '/api/v1/users' : '/api/v1/auth/check-username?username=someone' };
    });
    try {
      await waitFor('traffic with Redis up', 20_000, async () => (load.outcomes.length >= 50 ? true : undefined));
      expect(logged('Redis is unreachable')).toBe(0);

      const killedAt = Date.now();
      await redis.kill();
      await waitFor('traffic with Redis down', 20_000, async () =>
        load.since(killedAt).length >= 200 ? true : undefined,
      );
      expect(logged(LIMITS_DOWN)).toBe(1);
      expect(logged(LIVE_DOWN)).toBeLessThanOrEqual(1);

      const restartedAt = Date.now();
      await redis.start();
      await waitFor('the log saying Redis is back', 10_000, async () =>
        logged('Redis is back: rate limits') === 1 ? true : undefined,
      );
      await waitFor('traffic with Redis back', 20_000, async () =>
        load.since(restartedAt).length >= 50 ? true : undefined,
      );
      const outcomes = await load.stop();

      const during = outcomes.filter((o) => o.at >= killedAt && o.at < restartedAt);
      const slowest = Math.max(...during.map((o) => o.ms));
      console.warn(
        `Redis outage: ${outcomes.length} requests ${JSON.stringify(tally(outcomes))}; slowest while down ${slowest} ms`,
      );
      expect(
        outcomes.filter((o) => o.networkError || o.status >= 500),
        JSON.stringify(tally(outcomes)),
      ).toEqual([]);
      // the limits still hold while Redis is away: the login limiter refuses after five failures
      expect(during.some((o) => o.status === 429)).toBe(true);
      // no request waits on Redis: nothing close to the multi-second stalls of an offline queue
      expect(slowest).toBeLessThan(1_500);
      expect(logged(LIMITS_DOWN)).toBe(1);
      expect(logged(LIVE_DOWN)).toBeLessThanOrEqual(1);
    } finally {
      await load.stop();
    }
  });
});

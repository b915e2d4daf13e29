import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { createPgCluster, faultSuiteEnabled, waitFor, type PgCluster } from './fault-services.js';
import { startLoad, tally } from './load.js';

const PASSWORD = 'correct horse battery staple';

describe.skipIf(!faultSuiteEnabled)('PostgreSQL restarting under load', () => {
  let cluster: PgCluster;
  let server: TestServer;

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.createDatabase('riff');
    server = await startTestServer({ DATABASE_URL: cluster.url('riff'), RIFF_TEST_PRISM_PROXY: '0' });
  });

  afterAll(async () => {
    await server?.close();
    await cluster?.destroy();
  });

  it('keeps the process up: 503 with Retry-After while it is down, 200 within 5 s after, no acknowledged write lost', {
    timeout: 60_000,
  }, async () => {
    const reads = ['/api/v1/tracks', '/api/v1/users', '/readyz'];
    let sent = 0;
    const load = startLoad(server.directUrl, 8, (worker) => {
      sent++;
      if (worker < 2) {
        const email = `fault-${randomUUID().slice(0, 12)}@example.test`;
        const body = JSON.stringify({ email, password: PASSWORD, password_confirmation: PASSWORD });
        return {
          path: '/api/v1/auth/register',
          init: { method: 'POST', body, headers: { 'content-type': 'application/json' } },
          wrote: email,
        };
      }
      return { path: reads[sent % reads.length]! };
    });
    try {
      await waitFor('traffic before the restart', 20_000, async () =>
        load.outcomes.filter((o) => o.status === 200).length >= 30 ? true : undefined,
      );

      const stoppedAt = Date.now();
      await cluster.stop();
      await waitFor('503s while PostgreSQL is down', 10_000, async () =>
        load.since(stoppedAt).filter((o) => o.status === 503).length >= 10 ? true : undefined,
      );

      await cluster.start();
      const startedAt = Date.now();
      const recovered = await waitFor('a 200 after PostgreSQL is back', 5_000, async () =>
        load.since(startedAt).find((o) => o.status === 200 && o.at - o.ms >= startedAt && o.path !== '/readyz'),
      );
      const recoveryMs = recovered.at - startedAt;
      await waitFor('writes after the restart', 20_000, async () =>
        load.since(recovered.at).filter((o) => o.status === 201).length >= 3 ? true : undefined,
      );
      const outcomes = await load.stop();

      const counts = tally(outcomes);
      console.warn(
        `PostgreSQL restart: ${outcomes.length} requests ${JSON.stringify(counts)}, first 200 ${recoveryMs} ms after the start`,
      );
      expect(
        outcomes.filter((o) => o.networkError),
        JSON.stringify(counts),
      ).toEqual([]);
      expect(
        outcomes.filter((o) => o.status >= 500 && o.status !== 503),
        JSON.stringify(counts),
      ).toEqual([]);
      const unavailable = outcomes.filter((o) => o.status === 503);
      expect(unavailable.length).toBeGreaterThan(0);
      for (const reply of unavailable) {
        expect(reply.code).toBe('UNAVAILABLE');
        expect(Number(reply.retryAfter)).toBeGreaterThanOrEqual(1);
      }
      expect(recoveryMs).toBeLessThan(5_000);

      // every registration answered 201 is in the database
      const acknowledged = outcomes.filter((o) => o.status === 201).map((o) => o.wrote!);
      expect(acknowledged.length).toBeGreaterThan(3);
      const client = new pg.Client({ connectionString: cluster.url('riff') });
      await client.connect();
      try {
        const { rows } = await client.query<{ email: string }>('select email from users where email = any($1)', [
          acknowledged,
        ]);
        expect(rows.map((row) => row.email).sort()).toEqual([...acknowledged].sort());
      } finally {
        await client.end();
      }
      expect((await fetch(`${server.directUrl}/readyz`)).status).toBe(200);
    } finally {
      await load.stop();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { inject } from 'vitest';
import { createRiff, type Riff, type RiffOverrides } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { createHttpServer } from '../../server/src/platform/http/http-server.js';
import { prismProxyEnabled } from './prism-switch.js';
import { startPrismGate, type PrismGate } from './prism.js';
import { testHasher } from './test-hasher.js';

export { prismProxyEnabled };

export interface TestServer {
  /** Where tests send requests: the Prism gate when one runs (see prismProxyEnabled), else the server. */
  baseUrl: string;
  /** The server itself, bypassing Prism. */
  directUrl: string;
  /** `prism proxy --errors openapi.json` in front of the server, behind a relay (see startPrismGate), if any. */
  prism?: PrismGate;
  /** Origin of the service itself, accepted by the refresh-cookie CSRF check. */
  origin: string;
  dataDir: string;
  outboxDir: string;
  /** Schema of this app's own job queue. */
  jobsSchema: string;
  riff: Riff;
  close(): Promise<void>;
}

/**
 * Starts the real app on a loopback port. It runs on the embedded defaults unless the
 * environment names DATABASE_URL or REDIS_URL, in which case it uses those servers: the same
 * suite covers both.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  overrides: RiffOverrides = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-test-'));
  const server: Server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const config = loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    REPLY_VALIDATION: 'check',
    ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
    ...env,
  });
  // an embedded database in a fresh directory starts as a copy of the suite's template (global-setup.ts),
  // migrated and with its job queue made, in the default job schema
  const fromTemplate = !config.databaseUrl && env.DATA_DIR === undefined;
  if (fromTemplate) await cp(inject('pgliteTemplate'), path.join(dataDir, 'pglite'), { recursive: true });
  const directUrl = `http://127.0.0.1:${port}`;
  // test files share one PostgreSQL database: each app gets its own job queue, so one app's mail is not sent by another
  const jobsSchema =
    overrides.jobsSchema ?? (fromTemplate ? 'riff_jobs' : `riff_jobs_test_${randomUUID().replaceAll('-', '')}`);
  // Prism starts while the app migrates its database; it forwards only once asked to. A server that
  // asks for a Prism of its own (RIFF_TEST_OWN_PRISM=1: the fuzzer) does not share the run's.
  const shared = env.RIFF_TEST_OWN_PRISM === '1' ? undefined : inject('sharedPrism') || undefined;
  const starting = prismProxyEnabled({ ...process.env, ...env })
    ? startPrismGate({ upstream: directUrl, shared })
    : undefined;
  starting?.catch(() => undefined);
  let riff: Riff;
  try {
    riff = await createRiff(config, {
      rateLimitPrefix: `test-${randomUUID()}`,
      hasher: testHasher,
      jobsSchema,
      ...overrides,
    });
  } catch (error) {
    await (await starting?.catch(() => undefined))?.close();
    server.close();
    throw error;
  }
  server.on('request', riff.app);
  server.on('upgrade', riff.upgrade);
  let prism: PrismGate | undefined;
  try {
    prism = await starting;
  } catch (error) {
    server.close();
    await riff.close();
    throw error;
  }
  return {
    baseUrl: prism?.baseUrl ?? directUrl,
    directUrl,
    prism,
    origin: directUrl,
    dataDir,
    outboxDir: config.mail.outboxDir,
    jobsSchema,
    riff,
    async close() {
      await prism?.close();
      await riff.closeSockets();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await riff.jobs.stop(5000);
      if (riff.database.kind === 'postgres' && !overrides.jobsSchema)
        await sql
          .raw(`drop schema if exists ${jobsSchema} cascade`)
          .execute(riff.database.db)
          .catch(() => undefined);
      await riff.close();
      await rm(dataDir, { recursive: true, force: true });
      const unreported = prism?.violations.filter((violation) => !violation.reported) ?? [];
      if (unreported.length > 0) {
        throw new Error(
          `${unreported.length} repl${unreported.length === 1 ? 'y' : 'ies'} broke openapi.json on the way through Prism:\n` +
            unreported.map((violation) => violation.message).join('\n'),
        );
      }
    },
  };
}

import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { openServices, type RiffOverrides, type RiffServices } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { testHasher } from './test-hasher.js';
import { seedDataDir } from './test-database.js';

/** The service tier's handle: every area's module on a real database, with no HTTP in front. */
export interface ServiceSuite extends RiffServices {
  /** Where the mail outbox is written (mail is sent when the test runs the queue: WORKERS=0). */
  outboxDir: string;
}

/**
 * One platform for the test file, for tests of rules that HTTP adds nothing to: services are called
 * directly with an Actor, on PGlite (a copy of the suite's template) or, when DATABASE_URL names it,
 * on PostgreSQL with a job schema of the file's own. Jobs run only when the test asks
 * (`suite.platform.jobs.runDue()`), so nothing happens behind a test's back.
 */
export function useServices(env: Record<string, string> = {}, overrides: RiffOverrides = {}): ServiceSuite {
  const suite = {} as ServiceSuite;
  let dataDir = '';
  const jobsSchema = process.env.DATABASE_URL ? `riff_jobs_test_${randomUUID().replaceAll('-', '')}` : 'riff_jobs';
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-services-'));
    await seedDataDir(dataDir);
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WORKERS: '0',
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      ...env,
    });
    const services = await openServices(config, {
      rateLimitPrefix: `test-${randomUUID()}`,
      hasher: testHasher,
      jobsSchema,
      ...overrides,
    });
    Object.assign(suite, services, { outboxDir: config.mail.outboxDir });
  });
  afterAll(async () => {
    await suite.platform?.jobs.stop(1000);
    if (suite.platform?.database.kind === 'postgres')
      await sql.raw(`drop schema if exists ${jobsSchema} cascade`).execute(suite.platform.database.db);
    await suite.close?.();
    await rm(dataDir, { recursive: true, force: true });
  });
  return suite;
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createRiff } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/platform/config/config.js';
import { migrateToLatest, openDatabase } from '../../server/src/platform/db/database.js';
import { startSharedPrism } from './prism.js';
import { prismProxyEnabled } from './prism-switch.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, closed PGlite data directory that embedded test servers start from (a copy each). */
    pgliteTemplate: string;
    /** The run's one Prism proxy, which test servers' gates share; empty with RIFF_TEST_PRISM_PROXY=0. */
    sharedPrism: string;
  }
}

/**
 * Runs once per `vitest run`, before any test file, what would cost seconds of CPU in every test
 * server: creating a PGlite cluster (its initdb), migrating it and creating its job queue, which embedded test servers copy
 * (tests/support/test-server.ts), and starting Prism, which their gates share.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-template-'));
  const database = await openDatabase({ dataDir });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  // One start of the app on the template creates its job queue (pg-boss's schema and a queue per job
  // type), which would otherwise cost every embedded test server seconds of PGlite's CPU.
  const app = await createRiff(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', WORKERS: '0', HOST: '127.0.0.1', PORT: '0' }),
    {},
  );
  await app.jobs.stop(0);
  await app.close();
  project.provide('pgliteTemplate', path.join(dataDir, 'pglite'));
  const prism = prismProxyEnabled() ? await startSharedPrism() : undefined;
  project.provide('sharedPrism', prism?.baseUrl ?? '');
  return async () => {
    await prism?.close();
    await rm(dataDir, { recursive: true, force: true });
  };
}

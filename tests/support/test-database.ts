import { cp } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

/**
 * Makes `dataDir` start where every embedded test server starts: with a copy of the suite's PGlite
 * template (created, migrated and holding the default job queue once per run by global-setup.ts), so a
 * test that opens the database or the platform itself spends no PGlite initdb or migration. Does
 * nothing when DATABASE_URL names a PostgreSQL server, which the test then uses instead.
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  if (process.env.DATABASE_URL) return;
  await cp(inject('pgliteTemplate'), path.join(dataDir, 'pglite'), { recursive: true });
}

import { cp } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
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

export interface OwnDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A new, empty PostgreSQL database beside the one DATABASE_URL names (the app migrates it when it
 * starts), dropped by `drop`; undefined on the embedded defaults, where every file has its own.
 */
export async function createOwnDatabase(): Promise<OwnDatabase | undefined> {
  const shared = process.env.DATABASE_URL;
  if (!shared) return undefined;
  const name = `riff_own_${randomUUID().replaceAll('-', '')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(shared);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

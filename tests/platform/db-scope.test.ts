import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createDbScope, type DbScope } from '../../server/src/platform/db/transactions.js';
import { seedDataDir } from '../support/test-database.js';

let database: DatabaseHandle;
let scope: DbScope;
let dataDir: string;
const table = `scope_probe_${randomUUID().replaceAll('-', '')}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-scope-'));
  await seedDataDir(dataDir);
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  scope = createDbScope(database.db);
  await sql.raw(`create table ${table} (name text not null)`).execute(database.db);
});
afterAll(async () => {
  await sql.raw(`drop table if exists ${table}`).execute(database.db);
  await database.close();
  await rm(dataDir, { recursive: true, force: true });
});

const insert = (name: string) => sql.raw(`insert into ${table} (name) values ('${name}')`).execute(scope.db);
const names = async () =>
  (await sql.raw<{ name: string }>(`select name from ${table} order by name`).execute(database.db)).rows.map(
    (row) => row.name,
  );

describe('units of work', () => {
  // PGlite has one connection: its transactions run one after another and cannot overlap
  it.skipIf(!process.env.DATABASE_URL)(
    'a transaction keeps its own executor after another one ends beside it (the store is off only when none runs)',
    async () => {
      let firstDone!: () => void;
      let secondIn!: () => void;
      const firstEnded = new Promise<void>((resolve) => (firstDone = resolve));
      const secondEntered = new Promise<void>((resolve) => (secondIn = resolve));
      const first = scope
        .transaction(async () => {
          await insert('first');
          await secondEntered;
        })
        .then(firstDone);
      const second = scope
        .transaction(async () => {
          secondIn();
          await firstEnded;
          expect(scope.inTransaction).toBe(true);
          await insert('second');
          throw new Error('roll back');
        })
        .catch((error: Error) => error.message);
      await first;
      expect(await second).toBe('roll back');
      // the second insert ran in its transaction, which rolled back
      expect(await names()).toEqual(['first']);
      expect(scope.inTransaction).toBe(false);
    },
  );

  it('outside a transaction the pool runs each statement; a later transaction has its store again', async () => {
    await insert('outside');
    await expect(
      scope.transaction(async () => {
        await insert('inside');
        expect(scope.inTransaction).toBe(true);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await names()).toContain('outside');
    expect(await names()).not.toContain('inside');
  });
});

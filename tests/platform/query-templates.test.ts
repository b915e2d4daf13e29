import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { QueryTemplates } from '../../server/src/platform/db/query-templates.js';
import { seedDataDir } from '../support/test-database.js';

let database: DatabaseHandle;
let dataDir: string;
const table = `templates_${process.pid}_${Date.now()}`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-templates-'));
  await seedDataDir(dataDir);
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await sql`create table ${sql.table(table)} (id integer primary key, name text not null, owner text)`.execute(
    database.db,
  );
  await sql`insert into ${sql.table(table)} values (1, 'alpha', 'ann'), (2, 'beta', 'bob'), (3, 'gamma', 'ann'), (4, 'al%pha', null)`.execute(
    database.db,
  );
});

afterAll(async () => {
  await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

type Row = { id: number; name: string; owner: string | null };
// the test's own table, typed for Kysely; the templates run on Riff's database handle as the repositories do
const typed = () => database.db as unknown as Kysely<Record<string, Row>>;
const rows = () => typed().selectFrom(table);

describe('query templates', () => {
  it('a shape compiled once answers each call with its own arguments, constants kept', async () => {
    const templates = new QueryTemplates();
    const byOwner = (owner: string, limit: number) =>
      templates.rows(database.db, 'by-owner', [owner, limit], (who, max) =>
        rows().select(['id', 'name']).where('owner', '=', who).where('id', '>', 0).orderBy('id').limit(max),
      );
    expect(await byOwner('ann', 10)).toEqual([
      { id: 1, name: 'alpha' },
      { id: 3, name: 'gamma' },
    ]);
    expect(await byOwner('bob', 10)).toEqual([{ id: 2, name: 'beta' }]);
    expect(await byOwner('ann', 1)).toEqual([{ id: 1, name: 'alpha' }]);
    expect(await byOwner('nobody', 5)).toEqual([]);
  });

  it('an argument made into a pattern is not a plain parameter: that shape is built each time, and answers right', async () => {
    const templates = new QueryTemplates();
    const like = (text: string) =>
      templates.first(database.db, 'like', [text], (word) =>
        rows().select('id').where('name', 'like', `${word}%`).orderBy('id'),
      );
    expect(await like('al')).toEqual({ id: 1 });
    expect(await like('be')).toEqual({ id: 2 });
    expect(await like('zz')).toBeUndefined();
  });

  it('runs inside a transaction on its connection', async () => {
    const templates = new QueryTemplates();
    await database.db.transaction().execute(async (trx) => {
      await sql`update ${sql.table(table)} set name = 'changed' where id = 2`.execute(trx);
      const typedTrx = trx as unknown as Kysely<Record<string, Row>>;
      const row = await templates.first(trx, 'by-id', [2], (id) =>
        typedTrx.selectFrom(table).select('name').where('id', '=', id),
      );
      expect(row).toEqual({ name: 'changed' });
      await sql`update ${sql.table(table)} set name = 'beta' where id = 2`.execute(trx);
    });
  });
});

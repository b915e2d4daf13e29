import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { seedDataDir } from '../support/test-database.js';

// Named prepared statements exist on PostgreSQL only (PGlite runs in-process).
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('prepared statements on PostgreSQL', () => {
  let database: DatabaseHandle;
  let dataDir: string;
  const table = `prepared_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-prepared-'));
    await seedDataDir(dataDir);
    // one connection, so every statement below runs where the earlier ones were prepared
    database = await openDatabase({ databaseUrl, dataDir, poolSize: 1 });
    await sql`create table ${sql.table(table)} (id integer primary key, name text not null)`.execute(database.db);
    await sql`insert into ${sql.table(table)} values (1, 'one'), (2, 'two')`.execute(database.db);
  });

  afterAll(async () => {
    await sql`drop table if exists ${sql.table(table)}`.execute(database.db);
    await database?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const read = (id: number) =>
    database.db
      .selectFrom(table as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst();
  const prepared = async () =>
    (await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(database.db)).rows.filter(
      (row) => row.statement.includes(table),
    );

  it('a statement used again runs prepared, with the same answers', async () => {
    expect(await read(1)).toEqual({ id: 1, name: 'one' });
    expect(await prepared()).toHaveLength(0);
    expect(await read(2)).toEqual({ id: 2, name: 'two' });
    expect(await read(3)).toBeUndefined();
    expect(await prepared()).toHaveLength(1);
  });

  it('a script of several statements without parameters runs every time (pg-boss maintenance does this)', async () => {
    const script = sql.raw(`update ${table} set name = name where id = 1; select count(*) as n from ${table}`);
    for (let run = 0; run < 3; run += 1) await expect(script.execute(database.db)).resolves.toBeDefined();
    expect((await prepared()).filter((row) => row.statement.startsWith('update'))).toEqual([]);
  });

  it('a column added under a prepared statement (a migration of a running service) does not fail the next read', async () => {
    await read(1);
    await read(1);
    await sql`alter table ${sql.table(table)} add column extra text not null default 'x'`.execute(database.db);
    expect(await read(1)).toEqual({ id: 1, name: 'one', extra: 'x' });
    expect(await read(2)).toEqual({ id: 2, name: 'two', extra: 'x' });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { seedDataDir } from '../support/test-database.js';

// Named prepared statements exist on PostgreSQL only: node-pg names them per connection. (On PGlite,
// naming them over its wire protocol cut the embedded suite's CPU by a fifth, but after some runs
// of failed statements PGlite answered every statement with "ERRORDATA_STACK_SIZE exceeded".)
const databaseUrl = process.env.DATABASE_URL;

describe.skipIf(!databaseUrl)('prepared statements on PostgreSQL', () => {
  let database: DatabaseHandle;
  let dataDir: string;
  const table = `prepared_${process.pid}_${Date.now()}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'riff-prepared-'));
    await seedDataDir(dataDir);
    // one connection, so every statement below runs where the earlier ones were prepared
    database = await openDatabase({ ...(databaseUrl ? { databaseUrl } : {}), dataDir, poolSize: 1 });
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

  it('a prepared statement gives the values, types and counts an unnamed one gives', async () => {
    const typed = `typed_${process.pid}_${Date.now()}`;
    await sql`create table ${sql.table(typed)} (id integer primary key, big bigint, day date, at timestamptz, doc jsonb, tags text[], raw bytea, note text)`.execute(
      database.db,
    );
    const row = {
      id: 1,
      big: 9_007_199_254_740_991,
      day: '2026-11-27',
      at: new Date('2026-11-27T10:11:12.345Z'),
      doc: { nested: [1, 'two', null] },
      tags: ['a', 'b c', 'd"e'],
      raw: Buffer.from([0, 1, 254, 255]),
      note: null,
    };
    const insert = (id: number) =>
      database.db
        .insertInto(typed as never)
        .values({ ...row, id, doc: JSON.stringify(row.doc) } as never)
        .executeTakeFirst();
    const readTyped = (id: number) =>
      database.db
        .selectFrom(typed as never)
        .selectAll()
        .where('id' as never, '=', id as never)
        .executeTakeFirst();
    const rename = (from: number, to: number) =>
      database.db
        .updateTable(typed as never)
        .set({ note: `moved to ${to}` } as never)
        .where('id' as never, '>=', from as never)
        .executeTakeFirst();
    // the first run of each is unnamed, the next ones named: both must answer alike
    for (const id of [1, 2, 3]) expect(Number((await insert(id)).numInsertedOrUpdatedRows)).toBe(1);
    for (const id of [1, 2, 3]) {
      const read = (await readTyped(id)) as typeof row | undefined;
      // bytea arrives as a Buffer from node-pg and as a Uint8Array from PGlite, on either path
      expect({ ...read, raw: Buffer.from(read!.raw) }).toEqual({ ...row, id });
    }
    expect(Number((await rename(2, 9)).numUpdatedRows)).toBe(2);
    expect(Number((await rename(1, 9)).numUpdatedRows)).toBe(3);
    expect(Number((await rename(7, 9)).numUpdatedRows)).toBe(0);
    // a failing run (a duplicate key) leaves the session usable, inside a transaction and out of it
    await expect(insert(1)).rejects.toMatchObject({ code: '23505' });
    await expect(
      database.db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom(typed as never)
          .where('id' as never, '=', 3 as never)
          .execute();
        await trx
          .insertInto(typed as never)
          .values({ id: 1 } as never)
          .execute();
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // the transaction was rolled back whole
    expect(await readTyped(3)).toMatchObject({ id: 3 });
    expect(await readTyped(2)).toMatchObject({ id: 2, note: 'moved to 9' });
    await sql`drop table ${sql.table(typed)}`.execute(database.db);
  });

  it('failures one after another, in and out of transactions, leave the session working', async () => {
    const insert = (id: number) =>
      database.db
        .insertInto(table as never)
        .values({ id, name: 'again' } as never)
        .execute();
    const failing = (value: string) =>
      database.db
        .selectFrom(table as never)
        .selectAll()
        .where('id' as never, '=', value as never)
        .execute();
    for (let run = 0; run < 12; run += 1) {
      // a duplicate key fails at execution, a malformed integer when its parameter is bound
      await expect(insert(1)).rejects.toMatchObject({ code: '23505' });
      await expect(failing('not a number')).rejects.toMatchObject({ code: '22P02' });
      await expect(
        database.db.transaction().execute(async (trx) => {
          await trx
            .insertInto(table as never)
            .values({ id: 1, name: 'again' } as never)
            .execute();
        }),
      ).rejects.toMatchObject({ code: '23505' });
    }
    expect(await read(2)).toMatchObject({ id: 2, name: 'two' });
  });
});

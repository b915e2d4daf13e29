import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createDbScope, type DbScope } from '../../server/src/platform/db/transactions.js';
import { createDailySalts } from '../../server/src/platform/privacy/daily-salt.js';
import { createOwnDatabase, seedDataDir, type OwnDatabase } from '../support/test-database.js';

let database: DatabaseHandle;
let scope: DbScope;
let dataDir: string;
// on PostgreSQL a database of its own: pruning removes every older salt, the running servers' too
let own: OwnDatabase | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'riff-salts-'));
  await seedDataDir(dataDir);
  own = await createOwnDatabase();
  database = await openDatabase({ databaseUrl: own?.url, dataDir });
  await migrateToLatest(database.db);
  scope = createDbScope(database.db);
});

afterAll(async () => {
  await database?.close();
  await own?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

// each test its own days
const at = (year: number, day: number, time = '12:00:00') => new Date(`${year}-03-0${day}T${time}.000Z`);

describe('daily salts', () => {
  it('every instance hashes alike within a UTC day, and differently the next day', async () => {
    const [one, two] = [createDailySalts(scope), createDailySalts(scope)];
    const input = '198.51.100.4\nSome-Player/1.0';
    const [a, b] = await Promise.all([
      one.dailyHash(at(2101, 1), input),
      two.dailyHash(at(2101, 1, '23:59:59'), input),
    ]);
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b).toBe(a);
    expect(await one.dailyHash(at(2101, 1, '00:00:00'), input)).toBe(a);
    expect(await two.dailyHash(at(2101, 2, '00:00:00'), input)).not.toBe(a);
    expect(await one.dailyHash(at(2101, 1), 'another input')).not.toBe(a);
  });

  it('a salt made in a transaction that rolls back is not kept: the instance then agrees with the others', async () => {
    const [one, two] = [createDailySalts(scope), createDailySalts(scope)];
    const input = 'rolled back';
    const inside = await scope
      .transaction(async () => {
        const hash = await one.dailyHash(at(2102, 1), input);
        throw Object.assign(new Error('the change failed'), { hash });
      })
      .catch((error: { hash: string }) => error.hash);
    const theirs = await two.dailyHash(at(2102, 1), input);
    expect(await one.dailyHash(at(2102, 1), input)).toBe(theirs);
    // the rolled-back salt was another random one
    expect(inside).not.toBe(theirs);
  });

  it('pruning destroys the salts of the days before the one given: their hashes can no longer be made again', async () => {
    const salts = createDailySalts(scope);
    const input = '203.0.113.9\nOld-Player/0.1';
    const before = await salts.dailyHash(at(2103, 1), input);
    const yesterday = await salts.dailyHash(at(2103, 2), input);
    const today = await salts.dailyHash(at(2103, 3), input);
    expect(await salts.pruneSalts(at(2103, 2, '00:00:00'))).toBeGreaterThanOrEqual(1);
    // a fresh instance (nothing in memory) reads the kept salts and makes the first day's anew
    const fresh = createDailySalts(scope);
    expect(await fresh.dailyHash(at(2103, 2), input)).toBe(yesterday);
    expect(await fresh.dailyHash(at(2103, 3), input)).toBe(today);
    expect(await fresh.dailyHash(at(2103, 1), input)).not.toBe(before);
    // and so does the instance that pruned (its memory of the day went with it)
    expect(await salts.dailyHash(at(2103, 1), input)).not.toBe(before);
  });
});

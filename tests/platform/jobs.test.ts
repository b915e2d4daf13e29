import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type CompiledQuery } from 'kysely';
import { createLogger } from '../../server/src/platform/logging/logger.js';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createDbScope } from '../../server/src/platform/db/transactions.js';
import { createJobQueue, type JobQueue, type JobType } from '../../server/src/platform/jobs/job-queue.js';
import { register } from '../support/accounts.js';
import '../support/test-jobs.js';
import { runDueJobs } from '../support/jobs.js';
import { readOutbox, waitForMail } from '../support/mail.js';
import { startTestServer } from '../support/test-server.js';
import { seedDataDir } from '../support/test-database.js';

const root = path.resolve(import.meta.dirname, '../..');
const logger = createLogger('silent');
const databaseUrl = process.env.DATABASE_URL;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A place for a queue: a PGlite folder, or a schema of its own on the PostgreSQL server under test. */
async function queuePlace() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-jobs-'));
  await seedDataDir(dataDir);
  const schema = `riff_jobs_test_${randomUUID().replaceAll('-', '')}`;
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  return { dataDir, schema };
}

async function open(place: { dataDir: string; schema: string }): Promise<DatabaseHandle> {
  const database = await openDatabase({ databaseUrl, dataDir: place.dataDir });
  cleanups.push(async () => {
    if (database.kind === 'postgres')
      await sql.raw(`drop schema if exists ${place.schema} cascade`).execute(database.db);
    await database.close();
  });
  return database;
}

function queue(
  database: DatabaseHandle,
  schema: string,
  types: JobType<`test.${string}`>[],
  concurrency = 2,
  scope = createDbScope(database.db),
): JobQueue {
  const jobs = createJobQueue(scope, logger, {
    concurrency,
    schema,
    pollIntervalMs: 100,
    maintenanceIntervalSeconds: 1,
  });
  for (const type of types) jobs.define(type);
  cleanups.push(() => jobs.stop(5000));
  return jobs;
}

describe('the job queue', () => {
  it('runs a job again after its worker process was killed with SIGKILL mid-job', async () => {
    const place = await queuePlace();
    const marker = path.join(place.dataDir, 'marker.log');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=@riff/source', 'tests/platform/fixtures/job-worker.ts'],
      {
        cwd: root,
        env: { ...process.env, DATA_DIR: place.dataDir, JOBS_SCHEMA: place.schema, MARKER_FILE: marker },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    cleanups.push(async () => {
      child.kill('SIGKILL');
      await exited;
    });
    const started = await until(
      'the job started in the child',
      async () => (await readFile(marker, 'utf8').catch(() => '')) || undefined,
      60_000,
    );
    expect(JSON.parse(started)).toMatchObject({ pid: child.pid, n: 7, attempt: 1 });
    child.kill('SIGKILL');
    await exited;

    const database = await open(place);
    const done: { n: number; attempt: number }[] = [];
    const jobs = queue(database, place.schema, [
      {
        name: 'test.work',
        expireInSeconds: 1,
        retryDelaySeconds: 1,
        handle: async (data, job) => void done.push({ n: data.n, attempt: job.attempt }),
      },
    ]);
    await jobs.start();
    await until('the job ran again after restart', async () => (done.length > 0 ? true : undefined));
    expect(done).toEqual([{ n: 7, attempt: 2 }]);
  });

  it('runs a job queued while the worker is looking for work at once, not after the poll interval', async () => {
    const place = await queuePlace();
    const database = await open(place);
    // the worker's look for due jobs is held 500 ms after its snapshot once armed: a job committed
    // then is not in that look, and its nudge comes while the worker is still looking (as a
    // request's job does when the worker has just completed another)
    let armed = false;
    let looking: () => void = () => undefined;
    const slow = {
      executeQuery: async (query: CompiledQuery) => {
        const result = await database.db.executeQuery(query);
        if (armed && query.sql.startsWith('select distinct name from')) {
          armed = false;
          looking();
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        return result;
      },
    };
    const scope = createDbScope(database.db);
    // a minute between idle looks: a lost nudge would leave the job that long
    const jobs = createJobQueue(Object.create(scope, { db: { get: () => slow } }) as typeof scope, logger, {
      concurrency: 1,
      schema: place.schema,
      pollIntervalMs: 60_000,
      maintenanceIntervalSeconds: 60,
    });
    const ran: number[] = [];
    let looked: Promise<void> | undefined;
    jobs.define({
      name: 'test.tick',
      handle: async (data) => {
        ran.push(data.n);
        // the look after this job completes is the one held
        if (data.n === 1) {
          looked = new Promise((resolve) => (looking = resolve));
          armed = true;
        }
      },
    });
    cleanups.push(() => jobs.stop(5000));
    await jobs.start();
    await jobs.enqueue('test.tick', { n: 1 });
    await until('the first job ran', async () => (looked ? true : undefined));
    // the worker's look after it has its snapshot: the next job is committed, and nudges, now
    await looked;
    await jobs.enqueue('test.tick', { n: 2 });
    await until('the job queued during the look ran', async () => (ran.length === 2 ? true : undefined), 10_000);
    expect(ran).toEqual([1, 2]);
  });

  it('retries a failed job with backoff and runs it to completion once', async () => {
    const place = await queuePlace();
    const database = await open(place);
    const attempts: number[] = [];
    let completedAt = 0;
    const jobs = queue(database, place.schema, [
      {
        name: 'test.flaky',
        retryDelaySeconds: 1,
        handle: async (_data, job) => {
          attempts.push(Date.now());
          if (job.attempt === 1) throw new Error('the first attempt fails');
          completedAt = Date.now();
        },
      },
    ]);
    await jobs.start();
    await jobs.enqueue('test.flaky', { n: 1 });
    await until('the retry succeeded', async () => (completedAt ? true : undefined));
    expect(attempts).toHaveLength(2);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
  });

  it('enqueues in a transaction only if it commits', async () => {
    const place = await queuePlace();
    const database = await open(place);
    const seen: number[] = [];
    const scope = createDbScope(database.db);
    const jobs = queue(
      database,
      place.schema,
      [{ name: 'test.tx', handle: async (data) => void seen.push(data.n) }],
      0,
      scope,
    );
    await jobs.start();
    await scope.transaction(() => jobs.enqueue('test.tx', { n: 1 }));
    await expect(
      scope.transaction(async () => {
        await jobs.enqueue('test.tx', { n: 2 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await jobs.runDue()).toBe(1);
    expect(seen).toEqual([1]);
  });

  it.skipIf(!databaseUrl)('never runs one job twice at once across two instances, and runs each once', async () => {
    const place = await queuePlace();
    const runs: { n: number; instance: string; start: number; end: number }[] = [];
    const active = new Set<number>();
    let overlaps = 0;
    const instance = (name: string): JobType<'test.shared'> => ({
      name: 'test.shared',
      handle: async (data) => {
        if (active.has(data.n)) overlaps++;
        active.add(data.n);
        const start = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 5 + (data.n % 7) * 3));
        active.delete(data.n);
        runs.push({ n: data.n, instance: name, start, end: Date.now() });
      },
    });
    // two instances: separate pools that share only the database
    const first = queue(await open(place), place.schema, [instance('a')], 4);
    const second = queue(await open(place), place.schema, [instance('b')], 4);
    await first.start();
    await second.start();
    const count = 60;
    for (let n = 0; n < count; n++) await (n % 2 ? first : second).enqueue('test.shared', { n });
    await until('every job ran', async () => (runs.length >= count ? true : undefined), 30_000);
    expect(overlaps).toBe(0);
    expect(runs.map((run) => run.n).sort((x, y) => x - y)).toEqual([...Array(count).keys()]);
    expect(new Set(runs.map((run) => run.instance))).toEqual(new Set(['a', 'b']));
  });
});

describe('mail through the job queue', () => {
  it('with WORKERS=0 the API queues mail and sends none; a worker sends it, stored encrypted meanwhile', async () => {
    const server = await startTestServer({ WORKERS: '0', RIFF_TEST_PRISM_PROXY: '0' });
    cleanups.push(() => server.close());
    const user = await register(server);
    expect(await readOutbox(server.outboxDir)).toEqual([]);
    const queued = await sql<{
      data: unknown;
    }>`select data from ${sql.table(`${server.jobsSchema}.job`)} where name = 'mail.send'`.execute(
      server.riff.database.db,
    );
    expect(queued.rows).toHaveLength(1);
    expect(JSON.stringify(queued.rows[0]!.data)).not.toContain(user.email);

    expect(await runDueJobs(server)).toBe(1);
    const mail = await waitForMail(server.outboxDir, user.email, 'verify-email');
    expect(mail.text).toMatch(/verify-email\?token=/);
  });
});

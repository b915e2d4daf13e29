import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createEventBus, type EventBus, type EventHandler } from '../../server/src/platform/events/event-bus.js';
import { EventsRepository } from '../../server/src/platform/events/events.repository.js';
import { createJobQueue, type JobQueue } from '../../server/src/platform/jobs/job-queue.js';
import { createLogger } from '../../server/src/platform/logging/logger.js';

// the event map is empty until areas add their events: tests use their own type names
const TYPE = 'test.happened' as never;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(handlers: EventHandler[]): Promise<{ database: DatabaseHandle; jobs: JobQueue; bus: EventBus; schema: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-events-'));
  const schema = `riff_jobs_test_${randomUUID().replaceAll('-', '')}`;
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrateToLatest(database.db);
  const jobs = createJobQueue(database.db, createLogger('silent'), { concurrency: 0, schema });
  const bus = createEventBus(jobs, new EventsRepository(database.db));
  for (const handler of handlers) bus.subscribe(handler);
  await jobs.start();
  cleanups.push(async () => {
    await jobs.stop(1000);
    if (database.kind === 'postgres') await sql.raw(`drop schema if exists ${schema} cascade`).execute(database.db);
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { database, jobs, bus, schema };
}

describe('domain events through the outbox', () => {
  it('a committed event reaches every handler of its type once, with its payload and who caused it', async () => {
    const seen: string[] = [];
    const { database, jobs, bus } = await setUp([
      { name: 'test-audit', type: TYPE, handle: async (event) => void seen.push(`audit ${JSON.stringify(event.payload)} ${event.actorId}`) },
      { name: 'test-search', type: TYPE, handle: async (event) => void seen.push(`search ${event.type}`) },
    ]);
    const actorId = randomUUID();
    const id = await database.db.transaction().execute((trx) => bus.record(trx, TYPE, { n: 1 } as never, { actorId, requestId: 'req-1' }));
    expect(await jobs.runDue()).toBe(2);
    expect(seen.sort()).toEqual([`audit {"n":1} ${actorId}`, 'search test.happened']);
    const stored = await database.db.selectFrom('domain_events').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ type: 'test.happened', payload: { n: 1 }, actor_id: actorId, request_id: 'req-1' });
  });

  it('an event recorded in a transaction that rolls back is neither stored nor handled', async () => {
    const seen: unknown[] = [];
    const marker = randomUUID();
    const { database, jobs, bus } = await setUp([{ name: 'test-audit', type: TYPE, handle: async (event) => void seen.push(event.payload) }]);
    await expect(
      database.db.transaction().execute(async (trx) => {
        await bus.record(trx, TYPE, { marker } as never);
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobs.runDue()).toBe(0);
    expect(seen).toEqual([]);
    const count = await database.db.selectFrom('domain_events').select((eb) => eb.fn.countAll<number>().as('n')).where(sql`payload->>'marker'`, '=', marker).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('a failing handler is retried on its own: the other handlers of the event run once', async () => {
    let flakyRuns = 0;
    let steadyRuns = 0;
    const { database, jobs, bus, schema } = await setUp([
      {
        name: 'test-flaky',
        type: TYPE,
        handle: async () => {
          flakyRuns++;
          if (flakyRuns === 1) throw new Error('a handler failed');
        },
      },
      { name: 'test-steady', type: TYPE, handle: async () => void steadyRuns++ },
    ]);
    await database.db.transaction().execute((trx) => bus.record(trx, TYPE, { n: 3 } as never));
    await jobs.runDue();
    expect({ flakyRuns, steadyRuns }).toEqual({ flakyRuns: 1, steadyRuns: 1 });
    // the retry waits out its backoff: bring it forward rather than wait
    await sql.raw(`update ${schema}.job set start_after = now() where state = 'retry'`).execute(database.db);
    expect(await jobs.runDue()).toBe(1);
    expect({ flakyRuns, steadyRuns }).toEqual({ flakyRuns: 2, steadyRuns: 1 });
  });
});

import { mkdtemp, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createDbScope, type DbScope } from '../../server/src/platform/db/transactions.js';
import { userActor, type RequestOrigin } from '../../server/src/platform/access/actor.js';
import type { UserRow } from '../../server/src/modules/users/users.tables.js';
import {
  type AnyEventHandler,
  createEventBus,
  type DomainEvent,
  type EventBus,
} from '../../server/src/platform/events/event-bus.js';
import { EventStream } from '../../server/src/platform/events/event-stream.js';
import { EventsRepository } from '../../server/src/platform/events/events.repository.js';
import { createJobQueue, type JobQueue } from '../../server/src/platform/jobs/job-queue.js';
import { createLogger } from '../../server/src/platform/logging/logger.js';
import { systemClock, type Clock } from '../../server/src/platform/clock.js';
import { seedDataDir } from '../support/test-database.js';

// the event map is empty until areas add their events: tests use their own type names
const TYPE = 'test.happened' as never;
const OTHER_TYPE = 'test.measured' as never;
const cleanups: (() => Promise<unknown>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  handlers: AnyEventHandler[],
  clock: Clock = systemClock,
): Promise<{ database: DatabaseHandle; scope: DbScope; jobs: JobQueue; bus: EventBus; schema: string }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'riff-events-'));
  await seedDataDir(dataDir);
  const schema = `riff_jobs_test_${randomUUID().replaceAll('-', '')}`;
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir });
  await migrateToLatest(database.db);
  const scope = createDbScope(database.db);
  const jobs = createJobQueue(scope, createLogger('silent'), { concurrency: 0, schema });
  const bus = createEventBus(scope, jobs, new EventsRepository(scope), new EventStream(scope), clock);
  for (const handler of handlers) bus.subscribe(handler);
  await jobs.start();
  cleanups.push(async () => {
    await jobs.stop(1000);
    if (database.kind === 'postgres') await sql.raw(`drop schema if exists ${schema} cascade`).execute(database.db);
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return { database, scope, jobs, bus, schema };
}

const origin: RequestOrigin = { ip: '203.0.113.7', userAgent: 'test-agent', requestId: 'req-1' };
const actorFor = (id: string) => userActor({ id, is_admin: false } as UserRow, 'bearer', origin);
const subject = { resource: 'thing', id: 'thing-1' };

describe('domain events through the outbox', () => {
  it('a committed event reaches every after-commit handler of its type once, with its data and who caused it', async () => {
    const seen: string[] = [];
    const { database, jobs, bus } = await setUp([
      {
        name: 'test-webhooks',
        types: [TYPE],
        handle: async (event) => void seen.push(`webhooks ${JSON.stringify(event.data)} ${event.actorId}`),
      },
      {
        name: 'test-search',
        types: '*',
        handle: async (event) => void seen.push(`search ${event.type} ${event.subject.id}`),
      },
    ]);
    const actorId = randomUUID();
    await bus.record(actorFor(actorId), TYPE, { subject, data: { n: 1 } as never });
    expect(await jobs.runDue()).toBe(2);
    expect(seen.sort()).toEqual([`search test.happened thing-1`, `webhooks {"n":1} ${actorId}`]);
    const stored = await database.db
      .selectFrom('domain_events')
      .selectAll()
      .where('actor_id', '=', actorId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      type: 'test.happened',
      payload: { n: 1 },
      subject_type: 'thing',
      subject_id: 'thing-1',
      user_id: actorId,
      request_id: 'req-1',
    });
  });

  it('an in-transaction handler runs inside the change: it sees the origin, and rolls back with it', async () => {
    const seen: unknown[] = [];
    const { scope, jobs, bus } = await setUp([
      {
        name: 'test-audit',
        types: '*',
        delivery: 'in-transaction',
        handle: async (event) => {
          seen.push({
            inTransaction: scope.inTransaction,
            ip: event.origin.ip,
            userId: event.userId,
            data: event.data,
          });
        },
      },
    ]);
    const actorId = randomUUID();
    const owner = randomUUID();
    await bus.record(actorFor(actorId), TYPE, { subject, userId: owner, data: { n: 1 } as never });
    expect(seen).toEqual([{ inTransaction: true, ip: '203.0.113.7', userId: owner, data: { n: 1 } }]);
    // no after-commit handler: nothing is stored in the outbox, no job is queued
    expect(await jobs.runDue()).toBe(0);
  });

  it('a handler of every type leaves out the types it excepts; events carry the service clock’s time, stored too', async () => {
    const seen: string[] = [];
    const at = new Date('2024-02-29T23:59:30.000Z');
    const { database, jobs, bus } = await setUp(
      [
        {
          name: 'test-audit',
          types: '*',
          except: [OTHER_TYPE],
          delivery: 'in-transaction',
          handle: async (event) => void seen.push(`${event.type} ${event.occurredAt.toISOString()}`),
        },
        { name: 'test-webhooks', types: [TYPE], handle: async () => {} },
      ],
      { now: () => at },
    );
    const actorId = randomUUID();
    await bus.record(actorFor(actorId), TYPE, { subject, data: { n: 1 } as never });
    await bus.record(actorFor(actorId), OTHER_TYPE, { subject, data: { n: 2 } as never });
    expect(seen).toEqual([`test.happened ${at.toISOString()}`]);
    expect(await jobs.runDue()).toBe(1);
    const stored = await database.db
      .selectFrom('domain_events')
      .select('created_at')
      .where('actor_id', '=', actorId)
      .executeTakeFirstOrThrow();
    expect(stored.created_at.toISOString()).toBe(at.toISOString());
  });

  it('an event recorded in a unit of work that rolls back is neither stored nor handled', async () => {
    const seen: unknown[] = [];
    const marker = randomUUID();
    const { database, scope, jobs, bus } = await setUp([
      { name: 'test-webhooks', types: [TYPE], handle: async (event) => void seen.push(event.data) },
    ]);
    await expect(
      scope.transaction(async () => {
        await bus.record(actorFor(randomUUID()), TYPE, { subject, data: { marker } as never });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await jobs.runDue()).toBe(0);
    expect(seen).toEqual([]);
    const count = await database.db
      .selectFrom('domain_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(sql`payload->>'marker'`, '=', marker)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it('a failing handler is retried on its own: the other handlers of the event run once', async () => {
    let flakyRuns = 0;
    let steadyRuns = 0;
    const { database, jobs, bus, schema } = await setUp([
      {
        name: 'test-flaky',
        types: [TYPE],
        handle: async () => {
          flakyRuns++;
          if (flakyRuns === 1) throw new Error('a handler failed');
        },
      },
      { name: 'test-steady', types: [TYPE], handle: async () => void steadyRuns++ },
    ]);
    await bus.record(actorFor(randomUUID()), TYPE, { subject, data: { n: 3 } as never });
    await jobs.runDue();
    expect({ flakyRuns, steadyRuns }).toEqual({ flakyRuns: 1, steadyRuns: 1 });
    // the retry waits out its backoff: bring it forward rather than wait
    await sql
      .raw(`update ${schema}.job set start_after = now() - interval '1 second' where state = 'retry'`)
      .execute(database.db);
    expect(await jobs.runDue()).toBe(1);
    expect({ flakyRuns, steadyRuns }).toEqual({ flakyRuns: 2, steadyRuns: 1 });
  });

  it('the outbox keeps events a week: older ones are pruned, newer ones stay', async () => {
    const { database, scope, bus } = await setUp([
      { name: 'test-webhooks', types: [TYPE], handle: async () => undefined },
    ]);
    const actorId = randomUUID();
    await bus.record(actorFor(actorId), TYPE, { subject: { resource: 'thing', id: 'old' }, data: {} as never });
    await bus.record(actorFor(actorId), TYPE, { subject: { resource: 'thing', id: 'new' }, data: {} as never });
    await database.db
      .updateTable('domain_events')
      .set({ created_at: new Date(Date.now() - 8 * 24 * 3600 * 1000) })
      .where('subject_id', '=', 'old')
      .execute();
    await new EventsRepository(scope).prune(new Date(Date.now() - 7 * 24 * 3600 * 1000));
    const left = await database.db
      .selectFrom('domain_events')
      .select('subject_id')
      .where('actor_id', '=', actorId)
      .execute();
    expect(left.map((row) => row.subject_id)).toEqual(['new']);
  });
});

describe('domain events in batches (the event stream)', () => {
  /** A batched consumer of its own name (the stream's table is shared on PostgreSQL) that keeps what it saw. */
  function consumer(fail: () => boolean = () => false) {
    const batches: number[][] = [];
    const handler: AnyEventHandler = {
      name: `test-rollup-${randomUUID()}`,
      types: [TYPE],
      delivery: 'batched',
      handleBatch: async (events: readonly DomainEvent[]) => {
        if (fail()) throw new Error('the batch failed');
        // slow enough that a second drain would run beside it, were batches not one at a time
        await new Promise((resolve) => setTimeout(resolve, 20));
        batches.push(events.map((event) => (event.data as unknown as { n: number }).n));
      },
    };
    return { handler, batches };
  }

  it('applies committed events once each, in the order recorded, a batch at a time; a failed batch stays for the next', async () => {
    let failing = true;
    const { handler, batches } = consumer(() => failing);
    const { scope, jobs, bus } = await setUp([handler]);
    const actor = actorFor(randomUUID());
    for (let n = 1; n <= 5; n++) await bus.record(actor, TYPE, { subject, data: { n } as never });
    // recorded in a unit of work that rolls back: never in the stream
    await expect(
      scope.transaction(async () => {
        await bus.record(actor, TYPE, { subject, data: { n: 99 } as never });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // of another type: not this consumer's
    await bus.record(actor, OTHER_TYPE, { subject, data: { n: 100 } as never });
    // no job per event
    expect(await jobs.runDue()).toBe(0);

    await expect(bus.drain(handler.name, 2)).rejects.toThrow('the batch failed');
    failing = false;
    expect(await bus.drain(handler.name, 2)).toBe(2);
    // two drains at once: one waits for the other, so no event is applied twice or out of order
    const both = await Promise.all([bus.drain(handler.name, 2), bus.drain(handler.name, 2)]);
    expect(both.sort()).toEqual([1, 2]);
    expect(await bus.drain(handler.name, 2)).toBe(0);
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
  });
});

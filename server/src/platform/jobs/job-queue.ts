import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { DbScope } from '../db/transactions.js';
import type { JobArgs, JobData, JobName, PeriodicJobName } from './job-map.js';
import { sqlExecutor } from './sql-executor.js';

/** One kind of job: its name (a key of JobMap), what it does with its payload, and how hard to try. */
export interface JobType<K extends JobName = JobName> {
  name: K;
  handle(data: JobData<K>, job: { id: string; attempt: number }): Promise<unknown>;
  /** Attempts after the first (default 5), spaced by exponential backoff from `retryDelaySeconds` (default 5). */
  retryLimit?: number;
  retryDelaySeconds?: number;
  /**
   * The lease: a job still active after this long is taken as dead (its process was killed)
   * and runs again. Longer than the job can take (default 15 minutes).
   */
  expireInSeconds?: number;
}

/** Enqueued inside a transaction (see DbScope), a job exists only if that transaction commits. */
export interface EnqueueOptions {
  /** At most one job with this key per `singletonSeconds` (a periodic job across instances). */
  singletonKey?: string;
  singletonSeconds?: number;
  /** Not run before this many seconds from now (a retry on its own schedule). */
  startAfterSeconds?: number;
}

export interface JobQueueOptions {
  /** Jobs run at once by this process; 0 runs none (the queue only takes jobs in). */
  concurrency: number;
  /** How often an idle worker looks for jobs enqueued by other processes. */
  pollIntervalMs?: number;
  /** How often expired leases are recovered and old jobs removed (pg-boss maintenance). */
  maintenanceIntervalSeconds?: number;
  /** Database schema of the queue's tables (default riff_jobs); tests give each app its own. */
  schema?: string;
}

export interface JobQueue {
  /** Declares a job type; only declared types can be enqueued and run. Before start(). */
  define<K extends JobName>(job: JobType<K>): void;
  enqueue<K extends JobName>(name: K, data: JobData<K>, options?: EnqueueOptions): Promise<void>;
  /** Enqueues `name` every `intervalMs` from every process running workers; one job per interval across them. */
  every(name: PeriodicJobName, intervalMs: number): void;
  /** Creates the queues (and pg-boss's schema on first use) and starts the workers. */
  start(): Promise<void>;
  /** Runs every job of this process's types that is due now, here, until none is left: for tests and scripts. */
  runDue(): Promise<number>;
  /** Runs one job's handler here and now, outside the queue, and returns what it returns: for tests and scripts. */
  run<K extends JobName>(name: K, ...data: JobArgs<K>): Promise<unknown>;
  /** Stops taking jobs and waits up to `timeoutMs` for the running ones; the rest stay queued. */
  stop(timeoutMs: number): Promise<void>;
}

/** A job type as the queue holds it, whatever its name and payload. */
interface AnyJobType extends Omit<JobType, 'name' | 'handle'> {
  name: string;
  handle(data: object, job: { id: string; attempt: number }): Promise<unknown>;
}

interface FetchedJob {
  id: string;
  data: object;
  retryCount: number;
}

export function createJobQueue(scope: DbScope, logger: Logger, options: JobQueueOptions): JobQueue {
  const schema = options.schema ?? 'riff_jobs';
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`job queue schema ${schema} is not a plain identifier`);
  // the queue's own work (fetch, complete, maintenance) starts outside any unit of work, so this is the pool
  const executor = sqlExecutor(() => scope.db);
  const boss = new PgBoss({
    db: executor,
    schema,
    supervise: options.concurrency > 0,
    schedule: false,
    migrate: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
    // completed jobs are kept a day for inspection, then deleted with their data
    archiveCompletedAfterSeconds: 60 * 60,
    deleteAfterDays: 1,
  });
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue maintenance failed'));

  const types = new Map<string, AnyJobType>();
  const periodic: { name: string; intervalMs: number }[] = [];
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  let started = false;
  let stopping = false;
  let wake: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let rotation = 0;
  let stopped: Promise<void> | undefined;

  // set by every nudge: one that comes while the loop is fetching (no `wake` to call yet) must not be
  // lost, or a job committed during that fetch waits a whole poll interval (a job that enqueues the
  // next of a chain, then completes, nudged twice while the loop was still looking)
  let nudged = false;
  const nudge = () => {
    nudged = true;
    wake?.();
  };

  // pg-boss fetches one queue per query: asking every queue in turn would cost one statement per
  // job type on every idle poll. One look over pg-boss's partial index of waiting jobs (state below
  // 'active') says which of this process's queues have a job due, and only those are fetched from.
  // The queue names are its parameter, so on PostgreSQL the statement, run on every idle poll, is
  // prepared once (a text without parameters runs unnamed and is planned again each time).
  const dueQueuesSql = `select distinct name from ${schema}.job where name = any($1::text[]) and state < 'active' and start_after <= now()`;
  async function dueQueues(): Promise<Set<string>> {
    const { rows } = await executor.executeSql(dueQueuesSql, [[...types.keys()]]);
    return new Set((rows as { name: string }[]).map((row) => row.name));
  }

  async function fetchNext(): Promise<{ type: AnyJobType; job: FetchedJob } | undefined> {
    for (let attempt = 0; ; attempt++) {
      const due = await dueQueues();
      if (due.size === 0) return undefined;
      const names = [...types.keys()];
      for (let i = 0; i < names.length; i++) {
        const type = types.get(names[(rotation + i) % names.length]!)!;
        if (!due.has(type.name)) continue;
        const [job] = (await boss.fetch(type.name, { batchSize: 1, includeMetadata: true })) as unknown as FetchedJob[];
        if (job) {
          rotation = (rotation + i + 1) % names.length;
          return { type, job };
        }
      }
      // pg-boss hands out a job once start_after < now(), and PGlite's clock counts whole
      // milliseconds: a job queued in this very millisecond (the nudge after its commit comes that
      // fast) is due at the next one, not at the next poll a second later
      if (attempt === 2) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  async function run(type: AnyJobType, job: FetchedJob): Promise<void> {
    try {
      await type.handle(job.data, { id: job.id, attempt: job.retryCount + 1 });
      await boss.complete(type.name, job.id);
    } catch (error) {
      logger.error({ err: error, job: type.name, jobId: job.id, attempt: job.retryCount + 1 }, 'job failed');
      await boss
        .fail(type.name, job.id, { message: error instanceof Error ? error.message : String(error) })
        .catch((failError: unknown) =>
          logger.error({ err: failError, job: type.name }, 'could not record a failed job'),
        );
    }
  }

  function launch(type: AnyJobType, job: FetchedJob): void {
    const work = run(type, job).finally(() => {
      running.delete(work);
      nudge();
    });
    running.add(work);
  }

  async function work(): Promise<void> {
    while (!stopping) {
      nudged = false;
      try {
        while (!stopping && running.size < options.concurrency) {
          const next = await fetchNext();
          if (!next) break;
          launch(next.type, next.job);
        }
      } catch (error) {
        logger.error({ err: error }, 'could not fetch jobs');
      }
      if (stopping) break;
      // nudged since this look began: look again now rather than after the poll interval
      if (nudged) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  async function enqueue(name: string, data: object, enqueueOptions: EnqueueOptions = {}): Promise<void> {
    if (!types.has(name)) throw new Error(`unknown job type ${name}`);
    await boss.send(name, data, {
      db: sqlExecutor(() => scope.db),
      ...(enqueueOptions.singletonKey ? { singletonKey: enqueueOptions.singletonKey } : {}),
      ...(enqueueOptions.singletonSeconds ? { singletonSeconds: enqueueOptions.singletonSeconds } : {}),
      ...(enqueueOptions.startAfterSeconds ? { startAfter: enqueueOptions.startAfterSeconds } : {}),
    });
    // in a transaction the job is not visible yet: the workers look once it commits
    scope.afterCommit(nudge);
  }

  async function shutDown(timeoutMs: number): Promise<void> {
    stopping = true;
    for (const timer of timers) clearInterval(timer);
    nudge();
    await loop;
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all([...running]),
      new Promise<void>((resolve) => {
        timeout = setTimeout(() => {
          logger.warn(
            { jobs: running.size },
            'jobs still running at shutdown: they run again once their lease expires',
          );
          resolve();
        }, timeoutMs);
      }),
    ]);
    clearTimeout(timeout);
    if (started) await boss.stop({ graceful: false, wait: true, close: false });
  }

  return {
    define(type) {
      if (started) throw new Error(`job type ${type.name} declared after the queue started`);
      if (types.has(type.name)) throw new Error(`job type ${type.name} declared twice`);
      types.set(type.name, type as unknown as AnyJobType);
    },

    enqueue: (name, data, enqueueOptions) => enqueue(name, data as object, enqueueOptions),

    every(name, intervalMs) {
      periodic.push({ name, intervalMs });
    },

    async start() {
      await boss.start();
      // creating a queue that exists changes nothing (its options stay as first made): only new types are created
      const existing = new Set((await boss.getQueues()).map((queue) => queue.name));
      for (const type of types.values()) {
        if (existing.has(type.name)) continue;
        await boss.createQueue(type.name, {
          name: type.name,
          retryLimit: type.retryLimit ?? 5,
          retryDelay: type.retryDelaySeconds ?? 5,
          retryBackoff: true,
          expireInSeconds: type.expireInSeconds ?? 15 * 60,
        });
      }
      started = true;
      if (options.concurrency <= 0) return;
      for (const { name, intervalMs } of periodic) {
        if (intervalMs <= 0) continue;
        const seconds = Math.max(1, Math.round(intervalMs / 1000));
        const tick = () =>
          void enqueue(name, {}, { singletonKey: name, singletonSeconds: seconds }).catch((error: unknown) =>
            logger.error({ err: error, job: name }, 'could not schedule a periodic job'),
          );
        const timer = setInterval(tick, intervalMs);
        timer.unref();
        timers.push(timer);
      }
      loop = work();
    },

    async run(name, ...[data]) {
      const type = types.get(name);
      if (!type) throw new Error(`unknown job type ${name}`);
      return type.handle(data ?? {}, { id: 'direct', attempt: 1 });
    },

    async runDue() {
      let count = 0;
      for (;;) {
        const next = await fetchNext();
        if (!next) return count;
        await run(next.type, next.job);
        count++;
      }
    },

    stop(timeoutMs) {
      stopped ??= shutDown(timeoutMs);
      return stopped;
    },
  };
}

import type { Riff } from '../../server/src/app.js';
import type { JobArgs, JobName } from '../../server/src/platform/jobs/job-map.js';

/** Anything holding a running app: a TestServer, or `{ riff }` for an app a test built itself. */
type HasApp = { riff: Pick<Riff, 'jobs'> };

/**
 * Runs one job's handler here and now, outside the queue, and returns what it returns (e.g. the
 * upload cleanup's counts): the way to test a job without waiting for its schedule.
 */
export async function runJob<T = unknown, K extends JobName = JobName>(
  server: HasApp,
  name: K,
  ...data: JobArgs<K>
): Promise<T> {
  return (await server.riff.jobs.run(name, ...data)) as T;
}

/**
 * Runs every job that is due now (mail, outbox deliveries to after-commit handlers, anything
 * enqueued), until none is left, and returns how many ran: for apps started with WORKERS=0, or
 * to see the effect of queued work without waiting for the workers.
 */
export async function runDueJobs(server: HasApp): Promise<number> {
  return server.riff.jobs.runDue();
}

/**
 * What `probe` reads once the queued work has made it true: runs the due jobs and probes until it
 * answers something other than undefined, within `timeoutMs`. A job a worker took already is not
 * run again by runDueJobs, so one call of it does not wait for that job: this does.
 */
export async function afterJobs<T>(
  server: HasApp,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runDueJobs(server);
    const found = await probe();
    if (found !== undefined || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

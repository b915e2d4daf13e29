import type { Logger } from 'pino';

export interface PeriodicJob {
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
}

/** Runs `work` every `intervalMs` (never two at once); 0 disables it. A failed run is logged. */
export function startPeriodicJob(name: string, intervalMs: number, work: () => Promise<unknown>, logger: Logger): PeriodicJob {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= work()
      .then((result) => logger.debug({ job: name, result }, 'job done'))
      .catch((error: unknown) => logger.error({ err: error, job: name }, 'job failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = intervalMs > 0 ? setInterval(run, intervalMs) : undefined;
  timer?.unref();
  return {
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

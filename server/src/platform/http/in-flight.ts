/**
 * Counts handlers still running, so shutdown can wait for them before it closes the database:
 * a handler whose client went away keeps running after its socket closed, and would otherwise
 * find the database gone halfway through its writes.
 */
export interface InFlight {
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Resolves once no handler runs, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void>;
}

export function createInFlight(): InFlight {
  let running = 0;
  let waiters: (() => void)[] = [];
  return {
    async run(work) {
      running++;
      try {
        return await work();
      } finally {
        running--;
        if (running === 0) for (const wake of waiters.splice(0)) wake();
      }
    },
    async idle(timeoutMs) {
      if (running === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        timer = setTimeout(() => {
          waiters = waiters.filter((waiter) => waiter !== resolve);
          resolve();
        }, timeoutMs);
      });
      clearTimeout(timer);
    },
  };
}

/** One request's outcome under load, as a client saw it. */
export interface Outcome {
  path: string;
  status: number;
  /** fetch itself failed: the connection was refused or cut (the process died or dropped it). */
  networkError?: string;
  code?: string;
  retryAfter: string | null;
  at: number;
  ms: number;
  /** For acknowledged writes: what was written. */
  wrote?: string;
}

export interface LoadRequest {
  path: string;
  init?: RequestInit;
  wrote?: string;
}

/**
 * Runs `workers` loops, each sending the next request from `next()` as soon as the previous one
 * is answered, until stop() is called. Every outcome is kept.
 */
export function startLoad(baseUrl: string, workers: number, next: (worker: number) => LoadRequest) {
  const outcomes: Outcome[] = [];
  let running = true;
  const loop = async (worker: number) => {
    while (running) {
      const request = next(worker);
      const started = Date.now();
      try {
        const reply = await fetch(`${baseUrl}${request.path}`, {
          ...request.init,
          signal: AbortSignal.timeout(15_000),
        });
        const text = await reply.text();
        let code: string | undefined;
        try {
          code = JSON.parse(text)?.error?.code;
        } catch {
          code = undefined;
        }
        outcomes.push({
          path: request.path,
          status: reply.status,
          code,
          retryAfter: reply.headers.get('retry-after'),
          at: Date.now(),
          ms: Date.now() - started,
          wrote: request.wrote,
        });
      } catch (error) {
        outcomes.push({
          path: request.path,
          status: 0,
          networkError: String(error),
          retryAfter: null,
          at: Date.now(),
          ms: Date.now() - started,
        });
      }
    }
  };
  const loops = Array.from({ length: workers }, (_, worker) => loop(worker));
  return {
    outcomes,
    since: (at: number) => outcomes.filter((outcome) => outcome.at >= at),
    async stop() {
      running = false;
      await Promise.all(loops);
      return outcomes;
    },
  };
}

/** Status counts, for failure messages. */
export const tally = (outcomes: Outcome[]) =>
  outcomes.reduce<Record<string, number>>((counts, { status, code }) => {
    const key = code ? `${status} ${code}` : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});

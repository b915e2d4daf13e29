import { rateLimited } from '../errors/app-error.js';
import type { Limiter } from './rate-limiter.js';

/**
 * Runs `work` if `key` has a point left in `limiter`, else refuses with 429 RATE_LIMITED and
 * `refusal(limit)` as its message. The point is taken first, so concurrent requests cannot all pass,
 * and given back when the work is refused for any reason (the limit included): only what was done counts.
 */
export async function withinLimit<T>(
  limiter: Limiter,
  key: string,
  refusal: (limit: number) => string,
  work: () => Promise<T>,
): Promise<T> {
  const taken = await limiter.consume(key);
  try {
    if (!taken.allowed) throw rateLimited(taken.retryAfterSeconds, refusal(taken.limit));
    return await work();
  } catch (error) {
    await limiter.reward(key).catch(() => undefined);
    throw error;
  }
}

import { API_KEY_READS_PER_HOUR, API_KEY_WRITES_PER_HOUR, requiredScope } from '@riff/contract';
import { AppError } from '../errors/app-error.js';
import type { RateLimits } from '../rate-limit/rate-limiter.js';

const HOUR = 3600;

/**
 * The hourly budget of each API key: reads and
 * writes counted apart, in Redis when configured so every instance shares one count. Every
 * request counts against its method's counter, refused or not, and every reply says where the
 * key stands.
 */
export interface ApiKeyLimits {
  /** Counts the request, sets the X-RateLimit-* headers, and throws 429 once the key is over its limit. */
  charge(keyId: string, method: string, res: RateHeaders): Promise<void>;
}

/** Where the X-RateLimit-* headers go: the reply (a RiffResponse), or what an interface outside the contract sends. */
export interface RateHeaders {
  setHeader(name: string, value: string): unknown;
}

export function createApiKeyLimits(limits: RateLimits): ApiKeyLimits {
  const counters = {
    read: limits.create('api-key-reads', { points: API_KEY_READS_PER_HOUR, durationSeconds: HOUR }),
    write: limits.create('api-key-writes', { points: API_KEY_WRITES_PER_HOUR, durationSeconds: HOUR }),
  };
  return {
    async charge(keyId, method, res) {
      const kind = requiredScope(method);
      const result = await counters[kind].consume(keyId);
      const waitSeconds = Math.max(1, result.retryAfterSeconds);
      // the limiter's windows run on real time, so the reset does too (not on a test's clock)
      const reset = Math.ceil(Date.now() / 1000) + waitSeconds;
      res.setHeader('X-RateLimit-Limit', String(result.limit));
      res.setHeader('X-RateLimit-Remaining', String(result.remaining));
      res.setHeader('X-RateLimit-Reset', String(reset));
      if (result.allowed) return;
      throw new AppError('RATE_LIMITED', `This API key has used its ${result.limit} ${kind}s for this hour`, {
        details: [{ field: 'limit', message: `${result.limit} ${kind} requests per hour per key`, value: kind }],
        headers: { 'Retry-After': String(waitSeconds) },
      });
    },
  };
}

import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LimitResult {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (or the block ends). */
  retryAfterSeconds: number;
}

export interface Limiter {
  consume(key: string, points?: number): Promise<LimitResult>;
  /** Reads without consuming. */
  peek(key: string): Promise<LimitResult>;
  reset(key: string): Promise<void>;
}

export interface LimiterOptions {
  points: number;
  durationSeconds: number;
  /** Once exceeded, refuse for this long. */
  blockSeconds?: number;
}

export interface RateLimits {
  create(name: string, options: LimiterOptions): Limiter;
  close(): Promise<void>;
}

function toResult(limit: number, res: RateLimiterRes | null, allowed: boolean): LimitResult {
  return {
    allowed,
    limit,
    remaining: res ? Math.max(0, res.remainingPoints) : limit,
    retryAfterSeconds: res ? Math.ceil(res.msBeforeNext / 1000) : 0,
  };
}

function wrap(limiter: RateLimiterAbstract, points: number): Limiter {
  return {
    async consume(key, cost = 1) {
      try {
        return toResult(points, await limiter.consume(key, cost), true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return toResult(points, error, false);
        throw error;
      }
    },
    async peek(key) {
      const res = await limiter.get(key);
      return toResult(points, res, res === null || res.remainingPoints > 0);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/** Counters in Redis when REDIS_URL is set (shared by every instance), else in this process's memory. */
export function createRateLimits(options: { redisUrl?: string; keyPrefix: string }): RateLimits {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false })
    : undefined;
  redis?.on('error', () => undefined);
  return {
    create(name, limiterOptions) {
      const common = {
        keyPrefix: `${options.keyPrefix}:${name}`,
        points: limiterOptions.points,
        duration: limiterOptions.durationSeconds,
        blockDuration: limiterOptions.blockSeconds ?? 0,
      };
      const limiter = redis ? new RateLimiterRedis({ ...common, storeClient: redis }) : new RateLimiterMemory(common);
      return wrap(limiter, limiterOptions.points);
    },
    async close() {
      await redis?.quit().catch(() => undefined);
    },
  };
}

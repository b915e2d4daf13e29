import type { Redis } from 'ioredis';
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
  /** Gives points back: for a consumed request that was then refused, so that it does not count. */
  reward(key: string, points?: number): Promise<void>;
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

function wrap(limiter: RateLimiterAbstract, points: number, started: Promise<void>): Limiter {
  return {
    async consume(key, cost = 1) {
      await started;
      try {
        return toResult(points, await limiter.consume(key, cost), true);
      } catch (error) {
        if (error instanceof RateLimiterRes) return toResult(points, error, false);
        throw error;
      }
    },
    async peek(key) {
      await started;
      const res = await limiter.get(key);
      return toResult(points, res, res === null || res.remainingPoints > 0);
    },
    async reset(key) {
      await started;
      await limiter.delete(key);
    },
    async reward(key, points = 1) {
      await started;
      await limiter.reward(key, points);
    },
  };
}

export interface RateLimitLogger {
  warn(message: string): void;
  info(message: string): void;
}

/**
 * A Redis client that never makes a request wait on an outage: no offline queue (a command while
 * disconnected fails at once), one retry, short connect and command timeouts; it reconnects by itself.
 * The log says when Redis goes away and when it is back, once per outage.
 */
async function connectRedis(
  url: string,
  logger: RateLimitLogger | undefined,
  isClosing: () => boolean,
): Promise<Redis> {
  // ioredis loads only when REDIS_URL is set
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
  let down = false;
  const lost = () => {
    if (down || isClosing()) return;
    down = true;
    logger?.warn('Redis is unreachable: rate limits continue in memory, per instance, until it is back');
  };
  redis.on('error', lost);
  redis.on('close', lost);
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('Redis is back: rate limits are shared again');
  });
  return redis;
}

/**
 * Counters in Redis when REDIS_URL is set (shared by every instance), else in this process's memory.
 * Redis is an accelerator: while it is unreachable, each limiter counts in memory instead (its insurance).
 */
export async function createRateLimits(options: {
  redisUrl?: string;
  keyPrefix: string;
  logger?: RateLimitLogger;
}): Promise<RateLimits> {
  let closing = false;
  const redis = options.redisUrl ? await connectRedis(options.redisUrl, options.logger, () => closing) : undefined;
  // the first requests wait (up to a second) for the first connection, so they count in Redis rather than in memory
  const started = new Promise<void>((resolve) => {
    if (!redis) return resolve();
    redis.once('ready', () => resolve());
    redis.once('error', () => resolve());
    setTimeout(resolve, 1_000).unref();
  });
  return {
    create(name, limiterOptions) {
      const common = {
        keyPrefix: `${options.keyPrefix}:${name}`,
        points: limiterOptions.points,
        duration: limiterOptions.durationSeconds,
        blockDuration: limiterOptions.blockSeconds ?? 0,
      };
      const limiter = redis
        ? new RateLimiterRedis({
            ...common,
            storeClient: redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(common),
          })
        : new RateLimiterMemory(common);
      return wrap(limiter, limiterOptions.points, started);
    },
    async close() {
      if (!redis) return;
      closing = true;
      await redis.quit().catch(() => undefined);
      redis.disconnect();
    },
  };
}

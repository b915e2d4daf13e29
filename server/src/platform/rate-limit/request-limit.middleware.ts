import type { Middleware } from '../http/middleware-chain.js';
import { rateLimited } from '../errors/app-error.js';
import type { Limiter } from './rate-limiter.js';

const EXEMPT = new Set(['/healthz', '/readyz']);

/** A ceiling on requests per client address, so no one client can take the service for itself. */
export function requestLimitMiddleware(limiter: Limiter): Middleware {
  return async (req, _res, next) => {
    if (EXEMPT.has(req.path)) return next();
    try {
      const result = await limiter.consume(req.ip ?? 'unknown');
      next(result.allowed ? undefined : rateLimited(result.retryAfterSeconds));
    } catch (error) {
      next(error);
    }
  };
}

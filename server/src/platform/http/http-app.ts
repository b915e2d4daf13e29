import express, { type Express, type Router } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { contract } from '@riff/contract';
import type { Config } from '../config/config.js';
import { createAuthenticator, type AuthenticatorDeps } from '../auth/authenticate.middleware.js';
import { errorMiddleware, notFoundMiddleware } from '../errors/error-middleware.js';
import { createHttpLogger } from '../logging/logger.js';
import { requestCeiling } from '../rate-limit/limit-policies.js';
import type { RateLimits } from '../rate-limit/rate-limiter.js';
import { requestLimitMiddleware } from '../rate-limit/request-limit.middleware.js';
import { docsRouter } from './docs.routes.js';
import type { InFlight } from './in-flight.js';
import { createJsonBodyParser } from './json-body.middleware.js';
import { rejectNulCharacters } from './nul-guard.middleware.js';
import { registerContract } from './register-contract.js';

export interface HttpAppParts {
  config: Config;
  logger: Logger;
  limits: RateLimits;
  authenticator: AuthenticatorDeps;
  /** Every contract router's implementation, keyed as in the contract. */
  routes: Record<string, unknown>;
  /** Express routers outside the contract. */
  routers: Router[];
  /** Counts running handlers, for shutdown. */
  inFlight: InFlight;
}

/** The Express app: the middleware every request passes, the contract's routes, then the error envelope. */
export function createHttpApp(parts: HttpAppParts): Express {
  const { config } = parts;
  const app = express();
  app.disable('x-powered-by');
  // No automatic weak ETag on JSON replies (they are not revalidated); streamed media set their own.
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.set('trust proxy', config.trustProxy);
  app.use(createHttpLogger(parts.logger));
  app.use(
    helmet({
      contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } },
      crossOriginResourcePolicy: { policy: 'same-site' },
    }),
  );
  app.use(
    cors({
      origin: config.corsOrigins,
      credentials: true,
      exposedHeaders: ['X-Request-Id', 'Retry-After', 'Deprecation', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    }),
  );
  app.use(requestLimitMiddleware(parts.limits.create('requests', requestCeiling(config.rateLimitPerMinute))));
  app.use(docsRouter());
  for (const router of parts.routers) app.use(router);
  registerContract(
    app,
    contract,
    parts.routes,
    [createJsonBodyParser('1mb'), rejectNulCharacters, createAuthenticator(parts.authenticator)],
    config.replyValidation,
    parts.inFlight,
  );
  app.use(notFoundMiddleware);
  app.use(errorMiddleware);
  return app;
}

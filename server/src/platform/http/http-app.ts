import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Router } from 'express';
import type { Logger } from 'pino';
import { contract } from '@riff/contract';
import type { Config } from '../config/config.js';
import { createAuthenticator, type AuthenticatorDeps } from '../auth/authenticate.middleware.js';
import { notFound, replyWithError } from '../errors/error-middleware.js';
import { requestLog } from '../logging/request-log.middleware.js';
import { requestCeiling } from '../rate-limit/limit-policies.js';
import type { RateLimits } from '../rate-limit/rate-limiter.js';
import { requestLimitMiddleware } from '../rate-limit/request-limit.middleware.js';
import { createContractRouter } from './contract-router.js';
import { corsMiddleware } from './cors.middleware.js';
import { docsRouter } from './docs.routes.js';
import { RiffRequest, RiffResponse } from './http-exchange.js';
import type { InFlight } from './in-flight.js';
import { createJsonBodyParser } from './json-body.middleware.js';
import { runChain, type Middleware } from './middleware-chain.js';
import { rejectNulCharacters } from './nul-guard.middleware.js';
import { requestBodyGuard } from './request-body.js';
import { securityHeaders } from './security-headers.middleware.js';

export interface HttpAppParts {
  config: Config;
  logger: Logger;
  limits: RateLimits;
  authenticator: AuthenticatorDeps;
  /** Every contract router's implementation, keyed as in the contract. */
  routes: Record<string, unknown>;
  /** Express routers outside the contract. */
  routers: Router[];
  /** Path prefixes whose routers answer CORS themselves (RiffModule.openCorsPaths). */
  openCorsPaths: string[];
  /** Counts running handlers, for shutdown. */
  inFlight: InFlight;
}

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** What the contract does not declare (the docs, the account pages) stays on Express, behind the same front. */
function pagesApp(parts: HttpAppParts): HttpHandler {
  const app = express();
  app.disable('x-powered-by');
  // No automatic weak ETag on replies (they are not revalidated); static files set their own.
  app.set('etag', false);
  app.set('query parser', 'extended');
  app.set('trust proxy', parts.config.trustProxy);
  app.use(docsRouter());
  for (const router of parts.routers) app.use(router);
  app.use((req, _res, next) => next(notFound(req)));
  // Express's request and response offer what the error reply uses (status, json, id, log, params)
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) =>
    replyWithError(error, req as unknown as RiffRequest, res as unknown as RiffResponse),
  );
  return app as unknown as HttpHandler;
}

/**
 * The service's request handler. Every request passes the front (request id and log line,
 * security headers, CORS, the per-address ceiling); a contract route is then served by the
 * contract router on Node's request directly, anything else by Express.
 */
export function createHttpApp(parts: HttpAppParts): HttpHandler {
  const { config } = parts;
  const front: Middleware[] = [
    requestLog(parts.logger),
    requestBodyGuard(config.requestBodies),
    securityHeaders(config.publicBaseUrl),
    corsMiddleware(config.corsOrigins, config.corsMaxAgeSeconds, parts.openCorsPaths),
    requestLimitMiddleware(parts.limits.create('requests', requestCeiling(config.rateLimitPerMinute))),
  ];
  const router = createContractRouter(contract, parts.routes, {
    middleware: [
      createJsonBodyParser(1024 * 1024, config.requestBodies.drainMaxBytes),
      rejectNulCharacters,
      createAuthenticator(parts.authenticator),
    ],
    replies: config.replyValidation,
    inFlight: parts.inFlight,
  });
  const pages = pagesApp(parts);

  return (incoming, outgoing) => {
    // the HTTP server makes these classes (http-server.ts); a plain Node server gets them here
    if (!(incoming instanceof RiffRequest)) Object.setPrototypeOf(incoming, RiffRequest.prototype);
    if (!(outgoing instanceof RiffResponse)) Object.setPrototypeOf(outgoing, RiffResponse.prototype);
    const req = incoming as RiffRequest;
    const res = outgoing as RiffResponse;
    req.res = res;
    req.trustProxy = config.trustProxy;
    const fail = (error: unknown) => replyWithError(error, req, res);
    runChain(front, req, res, (error) => {
      if (error !== undefined) return fail(error);
      let match;
      try {
        match = router.match(req);
      } catch (thrown) {
        return fail(thrown);
      }
      if (match) return router.serve(match, req, res, fail);
      // Express gives the request its own prototype: the logger goes with it as a plain property
      Object.defineProperty(req, 'log', { value: req.log, writable: true });
      pages(req, res);
    });
  };
}

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RiffRequest, RiffResponse } from '../http/http-exchange.js';
import type { Middleware } from '../http/middleware-chain.js';
import { requestFields } from './logger.js';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives each request its id (the caller's X-Request-Id when sane, else a new UUID, echoed on the
 * reply) and logs one line when the reply is done, with the fields pino-http wrote: req (id,
 * method, url without secrets, address, user agent; never headers), res.statusCode, responseTime.
 * `req.log`, the request's child logger, is only made when something logs through it.
 */
export function requestLog(logger: Logger): Middleware {
  return (req, res, next) => {
    const offered = req.headers['x-request-id'];
    req.id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    req.baseLogger = logger;
    res.setHeader('X-Request-Id', req.id);
    const start = Date.now();
    res.once('close', () => logDone(logger, req, res, Date.now() - start));
    next();
  };
}

function logDone(logger: Logger, req: RiffRequest, res: RiffResponse, responseTime: number): void {
  const fields = { req: requestFields(req), res: { statusCode: res.statusCode }, responseTime };
  if (res.statusCode >= 500) {
    logger.error({ ...fields, err: new Error(`failed with status code ${res.statusCode}`) }, 'request errored');
  } else {
    logger.info(fields, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
  }
}

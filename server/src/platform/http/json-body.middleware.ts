import express from 'express';
import { ContractNoBody, type AppRoute } from '@ts-rest/core';
import { AppError } from '../errors/app-error.js';
import type { RiffRequest as Request } from './http-exchange.js';
import type { Middleware } from './middleware-chain.js';

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

export const routeOf = (req: Request): AppRoute => req.tsRestRoute!;

/**
 * Parses JSON bodies after routing, only for routes whose contract declares a JSON body, so a
 * route without one never spends effort on a body and never answers 413 or 415.
 */
export function createJsonBodyParser(limit: string): Middleware {
  // not strict: a body that is valid JSON but not an object (null, 42) reaches the contract's
  // schema, which says what was expected, instead of being called "not valid JSON"
  // the raw bytes stay on the request for routes that check a signature over them (the HLS callback)
  const parse = express.json({ limit, strict: false, type: () => true, verify: (req, _res, buf) => ((req as Request).rawBody = buf) });
  return (req, res, next) => {
    const route = routeOf(req);
    if (route.method === 'GET' || !('body' in route) || route.body === ContractNoBody) return next();
    if (route.contentType === 'multipart/form-data') return next();
    if (!hasBody(req)) {
      req.body = undefined;
      return next();
    }
    if (!req.is(['application/json', '+json'])) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'));
    }
    parse(req as never, res as never, next);
  };
}

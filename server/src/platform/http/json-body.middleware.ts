import express from 'express';
import { ContractNoBody, type AppRoute } from '@ts-rest/core';
import { routeMeta } from '@riff/contract';
import { AppError } from '../errors/app-error.js';
import type { RiffRequest as Request } from './http-exchange.js';
import type { Middleware } from './middleware-chain.js';

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined ||
  (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0');

export const routeOf = (req: Request): AppRoute => req.tsRestRoute!;

/**
 * Parses JSON bodies after routing, only for routes whose contract declares a JSON body, so a
 * route without one never spends effort on a body and never answers 413 or 415. A route may
 * declare a larger limit (metadata.jsonBodyLimit) for a body that carries a document.
 */
export function createJsonBodyParser(limit: string): Middleware {
  // not strict: a body that is valid JSON but not an object (null, 42) reaches the contract's
  // schema, which says what was expected, instead of being called "not valid JSON"
  // the raw bytes stay on the request for routes that check a signature over them (the HLS callback)
  const parserFor = (bytes: string | number) =>
    express.json({ limit: bytes, strict: false, type: () => true, verify: (req, _res, buf) => ((req as Request).rawBody = buf) });
  const parsers = new Map<string | number, ReturnType<typeof parserFor>>([[limit, parserFor(limit)]]);
  const parserOf = (route: AppRoute) => {
    const bytes = routeMeta(route).jsonBodyLimit ?? limit;
    let parser = parsers.get(bytes);
    if (!parser) parsers.set(bytes, (parser = parserFor(bytes)));
    return parser;
  };
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
    parserOf(route)(req as never, res as never, next);
  };
}

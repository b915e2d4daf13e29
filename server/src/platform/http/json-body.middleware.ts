import express from 'express';
import { ContractNoBody, type AppRoute } from '@ts-rest/core';
import { routeMeta } from '@riff/contract';
import { AppError } from '../errors/app-error.js';
import type { RiffRequest as Request } from './http-exchange.js';
import type { Middleware } from './middleware-chain.js';
import { announcesBody } from './request-body.js';

export const routeOf = (req: Request): AppRoute => req.tsRestRoute!;

/**
 * Parses JSON bodies after routing, only for routes whose contract declares a JSON body, so a
 * route without one never spends effort on a body and never answers 413 or 415. A route may
 * declare a larger limit (metadata.jsonBodyLimit) for a body that carries a document. A body
 * declared larger than the limit is refused before it is read (the refusal then drains a bounded
 * part of it, replyBeforeBody); one that passes the limit while streaming is read to its end by the
 * parser before the 413, and cut if it goes on for more than `drainMaxBytes` past the limit.
 */
export function createJsonBodyParser(limit: number, drainMaxBytes: number): Middleware {
  // not strict: a body that is valid JSON but not an object (null, 42) reaches the contract's
  // schema, which says what was expected, instead of being called "not valid JSON"
  // the raw bytes stay on the request for routes that check a signature over them (the HLS callback)
  const parserFor = (bytes: string | number) =>
    express.json({
      limit: bytes,
      strict: false,
      type: () => true,
      verify: (req, _res, buf) => ((req as Request).rawBody = buf),
    });
  const parsers = new Map<number, ReturnType<typeof parserFor>>([[limit, parserFor(limit)]]);
  const parserOf = (bytes: number) => {
    let parser = parsers.get(bytes);
    if (!parser) parsers.set(bytes, (parser = parserFor(bytes)));
    return parser;
  };
  return (req, res, next) => {
    const route = routeOf(req);
    if (route.method === 'GET' || !('body' in route) || route.body === ContractNoBody) return next();
    if (route.contentType === 'multipart/form-data') return next();
    if (!announcesBody(req)) {
      req.body = undefined;
      return next();
    }
    if (!req.is(['application/json', '+json'])) {
      return next(new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'));
    }
    const bytes = routeMeta(route).jsonBodyLimit ?? limit;
    const identity = (req.headers['content-encoding'] ?? 'identity').toLowerCase() === 'identity';
    if (identity && req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length']) > bytes) {
      return next(new AppError('PAYLOAD_TOO_LARGE', `The body is larger than ${bytes} bytes`));
    }
    let seen = 0;
    const bound = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > bytes + drainMaxBytes) req.socket.destroy();
    };
    // after the parser has its own listener: this one alone must not start the flow
    parserOf(bytes)(req as never, res as never, next);
    req.on('data', bound);
    req.once('end', () => req.off('data', bound));
  };
}

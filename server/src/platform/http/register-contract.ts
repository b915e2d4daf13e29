import { Readable } from 'node:stream';
import { Router, type Express, type RequestHandler } from 'express';
import { isDeepStrictEqual } from 'node:util';
import { isAppRoute, isAppRouteNoBody, validateResponse, type AppRoute, type AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import { routeMeta } from '@riff/contract';
import { pathValues } from '../errors/error-middleware.js';
import type { InFlight } from './in-flight.js';

/** Keeps the path values for error replies: Express empties req.params once the route is left. */
const rememberPathValues: RequestHandler = (req, _res, next) => {
  pathValues.set(req, { ...req.params });
  next();
};

interface RoutePair {
  route: AppRoute;
  implementation: unknown;
}

function flatten(contract: AppRouter, implementation: Record<string, unknown>): RoutePair[] {
  return Object.entries(contract).flatMap(([key, value]) => {
    const impl = implementation[key];
    if (impl === undefined) throw new Error(`no implementation for contract route ${key}`);
    if (isAppRoute(value)) return [{ route: value, implementation: impl }];
    return flatten(value, impl as Record<string, unknown>);
  });
}

/** A literal segment outranks a parameter at the same position, so /users/me wins over /users/:id. */
function specificity(path: string): number[] {
  return path.split('/').filter(Boolean).map((segment) => (segment.startsWith(':') ? 1 : 0));
}

function compareRoutes(a: AppRoute, b: AppRoute): number {
  const left = specificity(a.path);
  const right = specificity(b.path);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

type Handler = (args: unknown) => Promise<{ status: number; body: unknown }>;

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

/**
 * Checks a reply against the contract: it must parse, and parsing must not change it (nothing
 * undeclared stripped, no default filled in), so a mapper that leaks a field fails the test
 * that sees it instead of being cleaned up silently.
 */
function checkingReplies(route: AppRoute, handler: Handler): Handler {
  return async (args) => {
    const result = await handler(args);
    const declared = route.responses[result.status];
    if (result.body instanceof Readable || declared === undefined || isAppRouteNoBody(declared)) return result;
    const { body } = validateResponse({ appRoute: route, response: result });
    if (!isDeepStrictEqual(asJson(body), asJson(result.body))) {
      throw new Error(`${route.method} ${route.path} ${result.status}: the reply carries what the contract does not declare`);
    }
    return result;
  };
}

/** Where a path belongs: its first three segments (`/api/v1/tracks`), none of which is a parameter. */
function bucketOf(path: string): string {
  const segments = path.split('/', 4);
  return segments.join('/');
}

/**
 * Serves every contract route through @ts-rest/express, most specific paths first. Request
 * validation errors go to the shared error middleware; with `replies: 'check'` every reply is
 * held to the contract (see checkingReplies).
 *
 * Routes are grouped by their first segments (`/api/v1/tracks`), one router each, found by a map
 * lookup: Express tries a request against every route in turn, so one flat list of all routes
 * cost every request a few dozen path matches.
 */
export function registerContract(
  app: Express,
  contract: AppRouter,
  implementation: Record<string, unknown>,
  middleware: RequestHandler[],
  replies: 'trust' | 'check' = 'check',
  inFlight?: InFlight,
): void {
  const pairs = flatten(contract, implementation).sort((a, b) => compareRoutes(a.route, b.route));
  // every route says how it is authenticated before anything is served
  for (const { route } of pairs) routeMeta(route);
  const buckets = new Map<string, Router>();
  for (const { route, implementation: impl } of pairs) {
    const key = bucketOf(route.path);
    if (key.includes(':')) throw new Error(`${route.path}: a parameter in the first segments cannot be grouped`);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = Router()));
    const checked = replies === 'check' ? checkingReplies(route, impl as Handler) : (impl as Handler);
    const handler: Handler = inFlight ? (args) => inFlight.run(() => checked(args)) : checked;
    createExpressEndpoints({ route }, { route: handler } as never, bucket, {
      logInitialization: false,
      // replies are built by mappers the types check; parsing each one again is for tests (above)
      responseValidation: false,
      globalMiddleware: [rememberPathValues, ...middleware] as never[],
      requestValidationErrorHandler: (error, _req, _res, next) => next(error),
    });
  }
  app.use((req, res, next) => {
    const bucket = buckets.get(bucketOf(req.path));
    if (bucket) bucket(req, res, next);
    else next();
  });
}

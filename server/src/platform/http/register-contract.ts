import type { Express, RequestHandler } from 'express';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { createExpressEndpoints } from '@ts-rest/express';
import { routeMeta } from '@riff/contract';
import { pathValues } from '../errors/error-middleware.js';

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

/**
 * Serves every contract route through @ts-rest/express, most specific paths first. Request
 * validation errors go to the shared error middleware; replies are validated (and stripped of
 * anything undeclared) against the contract.
 */
export function registerContract(
  app: Express,
  contract: AppRouter,
  implementation: Record<string, unknown>,
  middleware: RequestHandler[],
): void {
  const pairs = flatten(contract, implementation).sort((a, b) => compareRoutes(a.route, b.route));
  // every route says how it is authenticated before anything is served
  for (const { route } of pairs) routeMeta(route);
  for (const { route, implementation: impl } of pairs) {
    createExpressEndpoints({ route }, { route: impl } as never, app, {
      logInitialization: false,
      responseValidation: true,
      globalMiddleware: [rememberPathValues, ...middleware] as never[],
      requestValidationErrorHandler: (error, _req, _res, next) => next(error),
    });
  }
}

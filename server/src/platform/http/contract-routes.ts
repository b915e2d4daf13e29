import type { IncomingHttpHeaders } from 'node:http';
import type { AppRoute, AppRouter, ServerInferRequest, ServerInferResponses } from '@ts-rest/core';
import type { RiffRequest, RiffResponse } from './http-exchange.js';

/** What a route handler receives: the validated request parts, and Node's request and response. */
export type RouteArgs<R extends AppRoute> = ServerInferRequest<R, IncomingHttpHeaders> & {
  req: RiffRequest;
  res: RiffResponse;
};

/** A contract route's implementation: one of the replies the contract declares for it. */
export type RouteHandler<R extends AppRoute> = (args: RouteArgs<R>) => Promise<ServerInferResponses<R>>;

export type RoutesOf<T extends AppRouter> = {
  [K in keyof T]: T[K] extends AppRoute ? RouteHandler<T[K]> : T[K] extends AppRouter ? RoutesOf<T[K]> : never;
};

/** Types an area's implementation against its contract router (served by contract-router.ts). */
export function contractRoutes<T extends AppRouter>(_contract: T, implementation: RoutesOf<T>): RoutesOf<T> {
  return implementation;
}

/** Types one route's implementation, for a part of a router built in another file. */
export function contractRoute<R extends AppRoute>(_route: R, handler: RouteHandler<R>): RouteHandler<R> {
  return handler;
}

import { Readable } from 'node:stream';
import { isDeepStrictEqual } from 'node:util';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import {
  checkZodSchema,
  isAppRoute,
  isAppRouteNoBody,
  isAppRouteOtherResponse,
  TsRestResponseError,
  validateResponse,
  type AppRoute,
  type AppRouter,
} from '@ts-rest/core';
import { routeMeta } from '@riff/contract';
import { badRequest } from '../errors/app-error.js';
import type { RiffRequest, RiffResponse } from './http-exchange.js';
import type { InFlight } from './in-flight.js';
import { runChain, type Middleware, type Next } from './middleware-chain.js';
import { RequestValidationError } from './request-validation-error.js';

type Handler = (args: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;

interface Endpoint {
  route: AppRoute;
  handler: Handler;
}

/** A matched contract route and its path values. */
export interface RouteMatch {
  endpoint: Endpoint;
  params: Record<string, string>;
}

function flatten(contract: AppRouter, implementation: Record<string, unknown>): Endpoint[] {
  return Object.entries(contract).flatMap(([key, value]) => {
    const impl = implementation[key];
    if (impl === undefined) throw new Error(`no implementation for contract route ${key}`);
    if (isAppRoute(value)) return [{ route: value, handler: impl as Handler }];
    return flatten(value, impl as Record<string, unknown>);
  });
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

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
    // a stream, or a file sent instead of the JSON by content negotiation, is not JSON to check
    if (
      result.body instanceof Readable ||
      Buffer.isBuffer(result.body) ||
      declared === undefined ||
      isAppRouteNoBody(declared)
    )
      return result;
    const { body } = validateResponse({ appRoute: route, response: result });
    if (!isDeepStrictEqual(asJson(body), asJson(result.body))) {
      throw new Error(
        `${route.method} ${route.path} ${result.status}: the reply carries what the contract does not declare`,
      );
    }
    return result;
  };
}

/** ts-rest's request validation: path values and headers pass extra keys through, query and body do not. */
function validated(route: AppRoute, req: RiffRequest) {
  const params = checkZodSchema(req.params, route.pathParams, { passThroughExtraKeys: true });
  const headers = checkZodSchema(req.headers, route.headers, { passThroughExtraKeys: true });
  const query = checkZodSchema(req.query, route.query);
  const body = checkZodSchema(req.body, 'body' in route ? route.body : null);
  if (!params.success || !headers.success || !query.success || !body.success) {
    throw new RequestValidationError(
      params.success ? null : params.error,
      headers.success ? null : headers.error,
      query.success ? null : query.error,
      body.success ? null : body.error,
    );
  }
  return { params: params.data, headers: headers.data, query: query.data, body: body.data };
}

/** Writes a handler's result as ts-rest's Express adapter did: streams piped, JSON by res.json. */
function send(route: AppRoute, res: RiffResponse, result: { status: number; body: unknown }): void {
  const status = Number(result.status);
  if (result.body instanceof Readable) {
    res.statusCode = status;
    result.body.pipe(res);
    return;
  }
  const declared = route.responses[status];
  if (declared !== undefined && isAppRouteNoBody(declared)) {
    res.status(status).end();
  } else if (declared !== undefined && isAppRouteOtherResponse(declared)) {
    const body = result.body;
    // bytes keep the exact type their handler named (audio/wav where the contract says audio/*)
    if (!Buffer.isBuffer(body) || !res.hasHeader('content-type')) res.setHeader('content-type', declared.contentType);
    if (typeof body === 'string' || Buffer.isBuffer(body) || body == null)
      res.status(status).send(body as string | Buffer | null);
    else res.status(status).json(body);
  } else if (Buffer.isBuffer(result.body)) {
    // a route that also answers as a file (metadata.alsoContentTypes) set its type
    res.status(status).send(result.body);
  } else {
    res.status(status).json(result.body);
  }
}

export interface ContractRouterOptions {
  /** Runs after routing, before validation: body parsing, guards, authentication. */
  middleware: Middleware[];
  /** `check` holds every reply to the contract (tests); `trust` sends what the mapper built. */
  replies: 'trust' | 'check';
  inFlight?: InFlight;
}

export interface ContractRouter {
  /** The contract route for a request, if any; a path that is not valid percent-encoding is 400. */
  match(req: RiffRequest): RouteMatch | undefined;
  /** Serves a matched request; errors (validation, handler, middleware) go to `fail`. */
  serve(match: RouteMatch, req: RiffRequest, res: RiffResponse, fail: Next): void;
}

/**
 * Serves every contract route on Node's HTTP server directly: a radix tree (find-my-way) finds
 * the route, the route's middleware runs, ts-rest's checks validate the request, and the handler's
 * result is written as ts-rest's Express adapter wrote it. A literal segment outranks a parameter
 * (/users/me before /users/:id); like Express, matching ignores case and a trailing slash.
 */
export function createContractRouter(
  contract: AppRouter,
  implementation: Record<string, unknown>,
  options: ContractRouterOptions,
): ContractRouter {
  const tree = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: 8192 });
  for (const { route, handler } of flatten(contract, implementation)) {
    // every route says how it is authenticated before anything is served
    routeMeta(route);
    const checked = options.replies === 'check' ? checkingReplies(route, handler) : handler;
    const endpoint: Endpoint = {
      route,
      handler: options.inFlight ? (args) => options.inFlight!.run(() => checked(args)) : checked,
    };
    // as Express did, a GET route answers HEAD too (Node sends the headers only)
    const methods: HTTPMethod[] = route.method === 'GET' ? ['GET', 'HEAD'] : [route.method as HTTPMethod];
    tree.on(methods, route.path, () => undefined, endpoint);
  }

  async function run(endpoint: Endpoint, req: RiffRequest, res: RiffResponse): Promise<void> {
    const input = validated(endpoint.route, req);
    let result: { status: number; body: unknown };
    try {
      result = await endpoint.handler({ ...input, req, res });
    } catch (error) {
      if (!(error instanceof TsRestResponseError)) throw error;
      result = { status: error.statusCode, body: error.body };
    }
    send(endpoint.route, res, result);
  }

  return {
    match(req) {
      const path = req.path;
      const found = tree.find(req.method as HTTPMethod, path);
      if (!found) {
        if (path.includes('%') && !decodes(path)) throw badRequest('The path is not valid percent-encoding');
        return undefined;
      }
      return { endpoint: found.store as Endpoint, params: found.params as Record<string, string> };
    },
    serve(match, req, res, fail) {
      req.params = match.params;
      req.tsRestRoute = match.endpoint.route;
      runChain(options.middleware, req, res, (error) => {
        if (error !== undefined) return fail(error);
        run(match.endpoint, req, res).catch(fail);
      });
    },
  };
}

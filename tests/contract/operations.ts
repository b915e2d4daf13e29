/**
 * Every operation of the contract, found by walking the contract object (no list is kept here),
 * and what the contract declares about each: statuses, request schemas, authentication.
 */
import { ContractNoBody, isAppRoute, isZodType, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { contract, routeMeta, type RouteMeta } from '@riff/contract';

export interface Operation {
  /** e.g. `auth.login` */
  id: string;
  /** Keys from the contract root to the route, e.g. ['auth', 'login']. */
  keys: string[];
  route: AppRoute;
  meta: RouteMeta;
}

export function contractOperations(router: AppRouter = contract, prefix: string[] = []): Operation[] {
  return Object.entries(router).flatMap(([key, value]) => {
    const keys = [...prefix, key];
    if (isAppRoute(value)) return [{ id: keys.join('.'), keys, route: value, meta: routeMeta(value) }];
    return contractOperations(value as AppRouter, keys);
  });
}

/** Every status the route declares, its own and the router's common ones (429, 500). */
export function declaredStatuses(route: AppRoute): number[] {
  return Object.keys(route.responses)
    .map(Number)
    .sort((a, b) => a - b);
}

/** The documented success: the lowest 2xx the route declares. */
export function successStatus(route: AppRoute): number {
  const status = declaredStatuses(route).find((code) => code >= 200 && code < 300);
  if (status === undefined) throw new Error(`${route.method} ${route.path} declares no 2xx response`);
  return status;
}

/** The zod schema of a response, when the route declares one for that status. */
export function responseSchema(route: AppRoute, status: number): ZodTypeAny | undefined {
  const declared = (route.responses as Record<number, unknown>)[status];
  if (isZodType(declared)) return declared;
  if (declared && typeof declared === 'object' && 'body' in declared && isZodType(declared.body)) return declared.body;
  return undefined;
}

/**
 * The content type a declared response comes with: application/json for a zod schema, the declared
 * one for c.otherResponse (e.g. audio/*), undefined for c.noBody().
 */
export function responseContentType(route: AppRoute, status: number): string | undefined {
  const declared = (route.responses as Record<number, unknown>)[status];
  if (isZodType(declared)) return 'application/json';
  if (declared && typeof declared === 'object' && 'contentType' in declared) return String(declared.contentType);
  return undefined;
}

/** Every media type the route may answer with for `status`: the declared one, and metadata.alsoContentTypes (a query picks). */
export function responseContentTypes(route: AppRoute, status: number): string[] {
  const declared = responseContentType(route, status);
  if (!declared) return [];
  const also = (route.metadata as { alsoContentTypes?: readonly string[] } | undefined)?.alsoContentTypes ?? [];
  return declared === 'application/json' ? [declared] : [declared, ...also];
}

/** A content-type header value matches a declared type (`audio/*` matches audio/mpeg). */
export function contentTypeMatches(actual: string | null, declared: string): boolean {
  const type = (actual ?? '').split(';')[0]!.trim().toLowerCase();
  // a declared type may name its parameters (text/csv; charset=utf-8): the media type is what must match
  const media = declared.split(';')[0]!.trim().toLowerCase();
  const [major, minor] = media.split('/');
  // */* (a stored file of any kind) matches any type the reply names
  if (media === '*/*') return type.includes('/');
  if (minor === '*') return type.startsWith(`${major}/`);
  if (media === 'application/json') return /^application\/(.+\+)?json$/.test(type);
  return type === media;
}

/** Routes whose body is sent as multipart/form-data. */
export const isMultipart = (route: AppRoute) => 'contentType' in route && route.contentType === 'multipart/form-data';

const zod = (value: unknown): ZodTypeAny | undefined => (isZodType(value) ? value : undefined);

/** The JSON body schema; undefined for GET and for routes declared with c.noBody(). */
export function bodySchema(route: AppRoute): ZodTypeAny | undefined {
  if (route.method === 'GET' || !('body' in route) || route.body === ContractNoBody) return undefined;
  return zod(route.body);
}

export const querySchema = (route: AppRoute) => zod(route.query);
export const headersSchema = (route: AppRoute) => zod(route.headers);
export const pathParamsSchema = (route: AppRoute) => zod(route.pathParams);

/** Names of the `:param` segments of the path. */
export function pathParamNames(route: AppRoute): string[] {
  return [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);
}

/** Does the route read credentials (so a bearer token changes what it does)? */
export const readsCredentials = (operation: Operation) => operation.meta.auth !== 'public';

import type { Middleware } from './middleware-chain.js';
import { extractZodObjectShape, isZodObject } from '@ts-rest/core';
import { fieldIssue, type ValidationIssue, validationFailed } from '../errors/app-error.js';
import { routeOf } from './json-body.middleware.js';

const MAX_REPORTED = 10;

/** Paths of every string holding a NUL character (iterative: parsed bodies can be deeply nested). */
function nulPaths(root: unknown, prefix: string): string[] {
  const found: string[] = [];
  const stack: [unknown, string][] = [[root, prefix]];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) found.push(path);
    } else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) found.push(childPath);
        stack.push([child, childPath]);
      }
    }
  }
  return found;
}

const declaredKeys = new WeakMap<object, string[]>();

/** Only the query parameters the route declares: others are ignored, so they cannot do harm. */
function declaredQuery(query: Record<string, unknown>, schema: unknown): Record<string, unknown> {
  if (!isZodObject(schema)) return {};
  let declared = declaredKeys.get(schema);
  if (!declared) declaredKeys.set(schema, (declared = Object.keys(extractZodObjectShape(schema) as object)));
  const picked: Record<string, unknown> = {};
  for (const key of declared) if (Object.hasOwn(query, key)) picked[key] = query[key];
  return picked;
}

/**
 * PostgreSQL cannot store a NUL character in text: such input is refused here, for every route,
 * as 400 VALIDATION_FAILED, before it can reach a query.
 */
export const rejectNulCharacters: Middleware = (req, _res, next) => {
  const route = routeOf(req);
  const query = declaredQuery(req.query, route.query);
  const paths = [...nulPaths(req.params, 'params'), ...nulPaths(query, 'query'), ...nulPaths(req.body, '')];
  if (paths.length === 0) return next();
  const details: ValidationIssue[] = paths.map((field) => fieldIssue(field, 'must not contain NUL characters'));
  next(validationFailed('The request contains a NUL character', details));
};

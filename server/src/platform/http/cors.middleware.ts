import cors from 'cors';
import type { Middleware } from './middleware-chain.js';

const EXPOSED_HEADERS = [
  'X-Request-Id',
  'Retry-After',
  'Deprecation',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];

/**
 * CORS for the configured origins, with credentials. A preflight answer may be reused by the
 * browser for maxAgeSeconds (Access-Control-Max-Age), so a page does not send an OPTIONS before
 * each of its calls. Most requests carry no Origin (servers,
 * players, same-origin pages): what `cors` answers to those depends on nothing in the request, so
 * it runs once at start-up against a recorder and such requests get the recorded headers; a
 * request with an Origin, and every preflight, goes through `cors` itself. Below `openPaths` the
 * router answers CORS itself (any origin, no credentials) and this stays out of its way.
 */
export function corsMiddleware(
  origins: string[],
  maxAgeSeconds: number,
  openPaths: readonly string[] = [],
): Middleware {
  // `/rest` covers /rest, /rest/… and /rest?…, not /restful
  const under = (url: string, prefix: string) =>
    url.startsWith(prefix) && ['', '/', '?'].includes(url.charAt(prefix.length));
  const open = (url: string | undefined) => url !== undefined && openPaths.some((prefix) => under(url, prefix));
  const full = cors({
    origin: origins,
    credentials: true,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: maxAgeSeconds,
  }) as Middleware;
  // by lower-case name, each with the name as cors spelled it (the reply keeps that spelling)
  const recorded = new Map<string, [string, string]>();
  const recorder = {
    getHeader: (name: string) => recorded.get(name.toLowerCase())?.[1],
    setHeader: (name: string, value: string | number) => void recorded.set(name.toLowerCase(), [name, String(value)]),
    removeHeader: (name: string) => void recorded.delete(name.toLowerCase()),
  };
  full({ method: 'GET', headers: {} } as never, recorder as never, () => undefined);
  const headers = [...recorded.values()];
  return (req, res, next) => {
    if (open(req.url)) return next();
    if (req.headers.origin !== undefined || req.method === 'OPTIONS') return full(req, res, next);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

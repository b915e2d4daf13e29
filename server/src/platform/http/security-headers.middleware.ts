import helmet from 'helmet';
import type { Middleware } from './middleware-chain.js';

const HELMET_OPTIONS = {
  contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } },
  crossOriginResourcePolicy: { policy: 'same-site' },
} as const;

/**
 * helmet's headers with the service's options. They do not depend on the request, so helmet runs
 * once at start-up against a recorder and every reply gets the recorded list.
 */
export function securityHeaders(): Middleware {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(HELMET_OPTIONS)({} as never, recorder as never, () => undefined);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

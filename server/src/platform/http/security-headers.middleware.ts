import helmet, { type HelmetOptions } from 'helmet';
import type { Middleware } from './middleware-chain.js';

/**
 * helmet's options for a service reached at `publicBaseUrl`. `upgrade-insecure-requests` is sent only
 * when that URL is https: on a plain-http address (a LAN, a container's name) it makes the browser
 * fetch /docs's script and style over https, which nobody answers, and the page stays blank.
 */
export function helmetOptions(publicBaseUrl: string): HelmetOptions {
  const https = new URL(publicBaseUrl).protocol === 'https:';
  return {
    contentSecurityPolicy: {
      directives: { 'img-src': ["'self'", 'data:'], 'upgrade-insecure-requests': https ? [] : null },
    },
    crossOriginResourcePolicy: { policy: 'same-site' },
  };
}

/**
 * helmet's headers with the service's options. They do not depend on the request, so helmet runs
 * once at start-up against a recorder and every reply gets the recorded list.
 */
export function securityHeaders(publicBaseUrl: string): Middleware {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet(helmetOptions(publicBaseUrl))({} as never, recorder as never, () => undefined);
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

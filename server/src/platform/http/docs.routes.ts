import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router, type Request } from 'express';
import { API_PREFIX } from '@riff/contract';
import { buildOpenApiDocument } from '@riff/contract/openapi';
import { docsPage } from './docs-page.js';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/**
 * Swagger UI's own filter matches only tag names and paths, and the document is too long for a
 * browser's find (Swagger UI draws an operation's details only when it is opened): operationFilter
 * keeps the operations whose tag, method, path, operationId or summary hold every word typed.
 *
 * Swagger UI counts an empty security requirement (`{}`: credentials optional) as authorized, so
 * operations with optional authentication showed a closed padlock before any credentials were
 * entered. The plugin makes the padlock reflect only the credentials actually entered.
 */
const INIT_JS = `const optionalSecurityPadlock = () => ({
  statePlugins: {
    auth: {
      wrapSelectors: {
        isAuthorized: (original) => (state, securities) => {
          if (!securities || typeof securities.filter !== 'function') return original(state, securities);
          const named = securities.filter((requirement) => requirement && requirement.size > 0);
          return original(state, named.size > 0 ? named : securities);
        },
      },
    },
  },
});
const operationFilter = () => ({
  fn: {
    opsFilter: (taggedOps, phrase) => {
      const words = String(phrase).toLowerCase().split(/\\s+/).filter(Boolean);
      if (words.length === 0) return taggedOps;
      const text = (value) => (value === undefined || value === null ? '' : String(value).toLowerCase());
      return taggedOps
        .map((tagObj, tag) => {
          const operations = tagObj && typeof tagObj.get === 'function' ? tagObj.get('operations') : undefined;
          if (!operations || typeof operations.filter !== 'function') return null;
          const found = operations.filter((entry) => {
            const operation = entry.get('operation');
            const haystack = [tag, entry.get('method'), entry.get('path'), operation && operation.get('operationId'), operation && operation.get('summary')]
              .map(text)
              .join(' ');
            return words.every((word) => haystack.includes(word));
          });
          return found.size > 0 ? tagObj.set('operations', found) : null;
        })
        .filter((tagObj) => tagObj !== null);
    },
  },
});
window.ui = SwaggerUIBundle({
  url: '${API_PREFIX}/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  filter: true,
  displayOperationId: true,
  persistAuthorization: false,
  plugins: [optionalSecurityPadlock, operationFilter],
});
`;

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin this request reached, for the document's `servers`, so "Try it out" calls the server
 * that served the page. req.protocol and req.host read X-Forwarded-Proto/-Host only when
 * TRUST_PROXY is on; an odd Host falls back to a relative server.
 */
function servingOrigin(req: Request): string {
  const host = req.host;
  return host && HOST.test(host) ? `${req.protocol}://${host}` : '/';
}

/** GET /docs (an interactive reference, served from this process: no CDN) and the OpenAPI document. */
export function docsRouter(): Router {
  const router = Router();
  let document: Record<string, unknown> | undefined;
  /** The rendered document per origin (a server is reached under few names; the cache stays small). */
  const rendered = new Map<string, string>();
  router.get(`${API_PREFIX}/openapi.json`, (req, res) => {
    document ??= buildOpenApiDocument();
    const origin = servingOrigin(req);
    let text = rendered.get(origin);
    if (text === undefined) {
      text = JSON.stringify({ ...document, servers: [{ url: origin, description: 'This server' }] });
      if (rendered.size >= 16) rendered.delete(rendered.keys().next().value!);
      rendered.set(origin, text);
    }
    res.type('application/json').send(text);
  });
  let page: string | undefined;
  router.get('/docs', (_req, res) => {
    document ??= buildOpenApiDocument();
    page ??= docsPage(document);
    res.type('html').send(page);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT_JS);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}

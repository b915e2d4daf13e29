import { createRequire } from 'node:module';
import path from 'node:path';
import express, { Router } from 'express';
import { API_PREFIX } from '@riff/contract';
import { buildOpenApiDocument } from '@riff/contract/openapi';

const require = createRequire(import.meta.url);
const swaggerUiDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Riff API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.ui = SwaggerUIBundle({ url: '${API_PREFIX}/openapi.json', dom_id: '#swagger-ui', deepLinking: true, persistAuthorization: false });\n`;

/** GET /docs (an interactive reference, served from this process: no CDN) and the OpenAPI document. */
export function docsRouter(): Router {
  const router = Router();
  let document: string | undefined;
  router.get(`${API_PREFIX}/openapi.json`, (_req, res) => {
    document ??= JSON.stringify(buildOpenApiDocument());
    res.type('application/json').send(document);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT_JS);
  });
  router.use('/docs/assets', express.static(swaggerUiDir, { index: false, maxAge: '1d' }));
  return router;
}

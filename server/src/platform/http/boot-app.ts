import { randomUUID } from 'node:crypto';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { docsRouter } from './docs.routes.js';
import { helmetOptions } from './security-headers.middleware.js';

/**
 * What the process serves while the database opens and migrates: /healthz (the process is alive),
 * /docs and the OpenAPI document; /readyz and every other route answer 503 UNAVAILABLE with
 * Retry-After until the service is ready.
 */
export function createBootApp(publicBaseUrl: string): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(helmet(helmetOptions(publicBaseUrl)));
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use(docsRouter());
  app.use((req, res) => {
    const offered = req.headers['x-request-id'];
    const requestId = typeof offered === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(offered) ? offered : randomUUID();
    res
      .status(503)
      .set({ 'Retry-After': '1', 'X-Request-Id': requestId })
      .json({
        success: false,
        error: { code: 'UNAVAILABLE', message: 'The service is starting', request_id: requestId },
      });
  });
  return app;
}

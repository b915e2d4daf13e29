import { ANALYTICS_EXPORT_COLUMNS, contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { CSV_CONTENT_TYPE, csvStream } from '../../platform/http/csv.js';
import { ok } from '../../platform/http/envelope.js';
import type { AnalyticsService } from './analytics.service.js';

export function analyticsRoutes(analytics: AnalyticsService) {
  return contractRoutes(contract.analytics, {
    overview: async ({ query, req }) => ({
      status: 200,
      body: ok(await analytics.overview(signedInActor(req), query)),
    }),
    track: async ({ params, query, req }) => ({
      status: 200,
      body: ok(await analytics.track(signedInActor(req), params.id, query)),
    }),
    audience: async ({ query, req }) => ({
      status: 200,
      body: ok(await analytics.audience(signedInActor(req), query)),
    }),
    export: async ({ query, req, res }) => {
      const rows = analytics.exportRows(signedInActor(req), query);
      res.setHeader('Content-Type', CSV_CONTENT_TYPE);
      res.setHeader('Content-Disposition', `attachment; filename="riff-analytics-${query.period}.csv"`);
      res.setHeader('Cache-Control', 'private, no-store');
      // streamed as the rows are read, with backpressure: a year of a large catalogue is never held whole;
      // a failure after the status line can only cut the reply
      const body = csvStream(ANALYTICS_EXPORT_COLUMNS, rows);
      body.on('error', () => res.destroy());
      return { status: 200, body };
    },
  });
}

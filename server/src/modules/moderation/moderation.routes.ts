import { contract } from '@riff/contract';
import { signedInActor } from '../../platform/access/request-actor.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import { ok } from '../../platform/http/envelope.js';
import type { CasesService } from './cases.service.js';
import type { ContentModerationService } from './content-moderation.service.js';
import type { ReportsService } from './reports.service.js';

export function moderationRoutes(services: {
  reports: ReportsService;
  cases: CasesService;
  content: ContentModerationService;
}) {
  const { reports, cases, content } = services;
  const target = (params: { target_type: Parameters<CasesService['get']>[1]['type']; target_id: string }) => ({
    type: params.target_type,
    id: params.target_id,
  });
  return contractRoutes(contract.moderation, {
    report: async ({ body, req }) => ({ status: 201, body: ok(await reports.report(signedInActor(req), body)) }),
    myReports: async ({ query, req }) => ({ status: 200, body: ok(await reports.mine(signedInActor(req), query)) }),
    queue: async ({ query, req }) => ({ status: 200, body: ok(await cases.queue(signedInActor(req), query)) }),
    getCase: async ({ params, req }) => ({
      status: 200,
      body: ok(await cases.get(signedInActor(req), target(params))),
    }),
    assignCase: async ({ params, req }) => ({
      status: 200,
      body: ok(await cases.assign(signedInActor(req), target(params))),
    }),
    resolveCase: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await cases.resolve(signedInActor(req), target(params), body)),
    }),
    dismissCase: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await cases.dismiss(signedInActor(req), target(params), body.note)),
    }),
    hideContent: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await content.act(signedInActor(req), params.target_type, params.id, 'hide', body.note)),
    }),
    restoreContent: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await content.act(signedInActor(req), params.target_type, params.id, 'restore', body.note)),
    }),
    removeContent: async ({ params, body, req }) => ({
      status: 200,
      body: ok(await content.act(signedInActor(req), params.target_type, params.id, 'remove', body.note)),
    }),
  });
}

import { initContract } from '@ts-rest/core';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userRoute } from '../../common/route-meta.js';
import { DashboardQuerySchema, DashboardResponseSchema } from './dashboard.schemas.js';

const c = initContract();

/** The signed-in user's dashboard: stats against the previous period, recent activity, a library preview. */
export const dashboardContract = c.router({
  get: {
    method: 'GET',
    path: '/dashboard',
    summary: 'Your dashboard',
    description:
      'Your listening, likes, session chat and active friends over stats_period against the period before it; your recent activity ' +
      '(what you did, and who followed you), newest first; and a preview of your own library, newest first.',
    metadata: userRoute,
    query: DashboardQuerySchema,
    responses: { 200: envelope(DashboardResponseSchema), ...errors(400, 401, 403) },
  },
});

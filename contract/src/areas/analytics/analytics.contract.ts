import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { withOpenApi } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import {
  ANALYTICS_EXPORT_COLUMNS,
  ANALYTICS_PERIOD_RULE,
  ANALYTICS_RULES,
  ANALYTICS_TOP_LISTENERS,
  AnalyticsAudienceQuerySchema,
  AnalyticsExportQuerySchema,
  AnalyticsOverviewSchema,
  AnalyticsQuerySchema,
  AudienceAnalyticsSchema,
  TrackAnalyticsSchema,
} from './analytics.schemas.js';

const c = initContract();

const BAD_QUERY = 'A period, interval or format that is not one of those listed is 400 VALIDATION_FAILED.';

/** A creator's analytics of their own tracks, read from daily roll-ups (never from raw events). */
export const analyticsContract = c.router({
  overview: {
    method: 'GET',
    path: '/analytics/overview',
    summary: 'Analytics of your tracks',
    description:
      'Totals of your tracks over the period against the period before it, a series per interval, your most played ' +
      `tracks and where plays were started. ${ANALYTICS_PERIOD_RULE} ${ANALYTICS_RULES} ${BAD_QUERY}`,
    metadata: userRoute,
    query: AnalyticsQuerySchema,
    responses: { 200: envelope(AnalyticsOverviewSchema), ...errors(400, 401, 403) },
  },
  track: {
    method: 'GET',
    path: '/analytics/tracks/:id',
    summary: 'Analytics of one of your tracks',
    description:
      'The overview’s figures for one track (without top_tracks), with its completion rate, its retention curve and the ' +
      'playlists it was played from. Its owner or an admin; another user gets 403 FORBIDDEN for a public track and ' +
      `404 NOT_FOUND for a private one. ${ANALYTICS_PERIOD_RULE} ${ANALYTICS_RULES} ${BAD_QUERY}`,
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: AnalyticsQuerySchema,
    responses: { 200: envelope(TrackAnalyticsSchema), ...errors(400, 401, 403, 404) },
  },
  audience: {
    method: 'GET',
    path: '/analytics/audience',
    summary: 'Who listens to your tracks',
    description:
      `Your top ${ANALYTICS_TOP_LISTENERS} signed-in listeners and the countries plays came from, over the period. Only ` +
      'listeners whose profile is public, who did not opt out through POST /users/me/privacy/opt-out and with no block ' +
      'between you either way appear, and an opt-out removes their past plays from this list too (they still count in ' +
      'countries and in every figure). An erased account leaves the list; its plays stay counted. ' +
      `${ANALYTICS_PERIOD_RULE} ${ANALYTICS_RULES} ${BAD_QUERY}`,
    metadata: userRoute,
    query: AnalyticsAudienceQuerySchema,
    responses: { 200: envelope(AudienceAnalyticsSchema), ...errors(400, 401, 403) },
  },
  export: {
    method: 'GET',
    path: '/analytics/export',
    summary: 'Export your analytics as CSV',
    description:
      'Not enveloped: text/csv; charset=utf-8, streamed. A header row ' +
      `\`${ANALYTICS_EXPORT_COLUMNS.join(',')}\`, then one row per track of yours and UTC day of the period with any ` +
      'activity, by date then title. Fields are quoted as RFC 4180 says (a field with a comma, a double quote, CR or LF is ' +
      'quoted, its quotes doubled; rows end with CRLF). So that no spreadsheet runs a cell as a formula, a text cell ' +
      "starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote ('). " +
      `${ANALYTICS_PERIOD_RULE} ${ANALYTICS_RULES} ${BAD_QUERY}`,
    metadata: userRoute,
    query: AnalyticsExportQuerySchema,
    responses: {
      200: c.otherResponse({
        contentType: 'text/csv',
        body: withOpenApi(z.any(), { type: 'string', description: 'The CSV file' }),
      }),
      ...errors(400, 401, 403),
    },
  },
});

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { PaginationQuerySchema, TimestampSchema, UuidSchema, pageOf, queryInt } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { userRoute } from '../../common/route-meta.js';
import { AuditDateQuery, AuditEntrySchema } from './audit.schemas.js';

const c = initContract();

/** Your audit log, read-only. */
export const auditContract = c.router({
  activity: {
    method: 'GET',
    path: '/audit/activity',
    summary: 'Your recent activity',
    metadata: userRoute,
    query: z.object({ limit: queryInt(1, 100).default(50) }),
    responses: {
      200: envelope(named('AuditActivity', z.object({ activities: z.array(AuditEntrySchema) }))),
      ...errors(400, 401, 403),
    },
  },
  logs: {
    method: 'GET',
    path: '/audit/logs',
    summary: 'Your audit log',
    description:
      'Your own entries, newest first (admins see everyone’s). offset, when given, takes precedence over page.',
    metadata: userRoute,
    query: PaginationQuerySchema.extend({
      action: z.string().max(100).optional(),
      resource: z.string().max(100).optional(),
      resource_id: UuidSchema.optional(),
      ip_address: z.string().max(100).optional(),
      user_agent: z.string().max(512).optional(),
      offset: queryInt(0, 1_000_000).optional(),
      ...AuditDateQuery,
    }),
    responses: { 200: envelope(named('AuditLogPage', pageOf('logs', AuditEntrySchema))), ...errors(400, 401, 403) },
  },
  stats: {
    method: 'GET',
    path: '/audit/stats',
    summary: 'Counts of your audit entries',
    metadata: userRoute,
    query: z.object(AuditDateQuery),
    responses: {
      200: envelope(
        named(
          'AuditStatsReply',
          z.object({
            stats: z.object({
              total: z.number().int(),
              by_action: z.record(z.number().int()),
              by_resource: z.record(z.number().int()),
              first_at: TimestampSchema.nullable(),
              last_at: TimestampSchema.nullable(),
            }),
          }),
        ),
      ),
      ...errors(400, 401, 403),
    },
  },
});

/** What the server receives for these queries, after coercion and defaults. */
export type AuditLogsQuery = z.infer<typeof auditContract.logs.query>;
export type AuditStatsQuery = z.infer<typeof auditContract.stats.query>;

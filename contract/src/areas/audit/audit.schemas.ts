import { z } from 'zod';
import { DateSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

export const AuditEntrySchema = named(
  'AuditEntry',
  z.object({
    id: UuidSchema,
    user_id: UuidSchema.nullable(),
    action: z.string(),
    resource: z.string(),
    resource_id: z.string().nullable(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    metadata: z.record(z.unknown()),
    created_at: TimestampSchema,
  }),
);

export const AuditDateQuery = {
  start_date: DateSchema.optional().describe('YYYY-MM-DD, inclusive'),
  end_date: DateSchema.optional().describe('YYYY-MM-DD, inclusive'),
};

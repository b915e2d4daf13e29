import type { Generated } from 'kysely';
import type { CreatedAt, Json } from '../../platform/db/column-types.js';

export interface AuditLogsTable {
  id: Generated<string>;
  user_id: string | null;
  action: string;
  resource: string;
  resource_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  metadata: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

/** The audit area's table: the append-only audit log. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    audit_logs: AuditLogsTable;
  }
}

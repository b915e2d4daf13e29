import type { Generated } from 'kysely';
import type { CreatedAt, Json } from './column-types.js';

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

/** The append-only audit log. */
export interface AuditTables {
  audit_logs: AuditLogsTable;
}

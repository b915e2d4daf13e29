import type { AuditRow } from './audit.repository.js';

export const toAuditEntryDto = (row: AuditRow) => ({
  id: row.id,
  user_id: row.user_id,
  action: row.action,
  resource: row.resource,
  resource_id: row.resource_id,
  ip_address: row.ip_address,
  user_agent: row.user_agent,
  metadata: row.metadata ?? {},
  created_at: row.created_at.toISOString(),
});

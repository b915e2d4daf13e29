import type { Sanction } from '@riff/contract';
import type { SanctionRow } from './sanctions.tables.js';

export const toSanctionDto = (row: SanctionRow): Sanction => ({
  id: row.id,
  kind: row.kind,
  reason: row.reason,
  actor_id: row.actor_id,
  created_at: row.created_at.toISOString(),
  ends_at: row.ends_at?.toISOString() ?? null,
  lifted_at: row.lifted_at?.toISOString() ?? null,
  lifted_by: row.lifted_by,
});

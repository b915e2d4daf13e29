import type { CaseEventRow, CaseRow, ReportRow } from './moderation.tables.js';
import type { ModerationCase, Profile, Report, ReportReason } from '@riff/contract';

export function toReportDto(row: ReportRow): Report {
  return {
    id: row.id,
    target_type: row.target_type,
    target_id: row.target_id,
    reason: row.reason,
    details: row.details,
    status: row.status,
    created_at: row.created_at.toISOString(),
    resolved_at: row.resolved_at?.toISOString() ?? null,
    outcome: row.outcome,
  };
}

export function toCaseDto(
  row: CaseRow,
  owner: Profile | undefined,
  reasons: Partial<Record<ReportReason, number>>,
): ModerationCase {
  return {
    target_type: row.target_type,
    target_id: row.target_id,
    target_snapshot: row.target_snapshot,
    owner: owner ?? null,
    report_count: row.report_count,
    reasons,
    first_reported_at: row.first_reported_at.toISOString(),
    last_reported_at: row.last_reported_at.toISOString(),
    assigned_to: row.assigned_to,
    status: row.status,
  };
}

export function toCaseEventDto(row: CaseEventRow) {
  return { action: row.action, actor_id: row.actor_id, note: row.note, created_at: row.created_at.toISOString() };
}

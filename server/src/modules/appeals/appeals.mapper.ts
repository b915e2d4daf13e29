import type { Appeal, StaffAppeal } from '@riff/contract';
import type { AppealRow } from './appeals.tables.js';

export const toAppealDto = (row: AppealRow): Appeal => ({
  id: row.id,
  subject_type: row.subject_type,
  subject_id: row.subject_id,
  target_type: row.target_type,
  message: row.message,
  status: row.status,
  created_at: row.created_at.toISOString(),
  decided_at: row.decided_at?.toISOString() ?? null,
  note: row.note,
});

/** Staff see whose appeal it is (the appellant never sees who decided). */
export const toStaffAppealDto = (row: AppealRow): StaffAppeal => ({ ...toAppealDto(row), appellant_id: row.user_id });

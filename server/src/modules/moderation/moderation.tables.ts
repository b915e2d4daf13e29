import type { CaseAction, ReportOutcome, ReportReason, ReportStatus, ReportTargetType } from '@riff/contract';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Json, Timestamp } from '../../platform/db/column-types.js';

type Created = ColumnType<Date, Date | string | undefined, Date | string>;

/**
 * A case: the reports of one target, grouped while open (one open case per target), with the target
 * as it was at its first report. A closed case stays; the target's next report opens a new one.
 */
export interface ModerationCasesTable {
  id: Generated<string>;
  target_type: ReportTargetType;
  target_id: string;
  owner_id: string | null;
  target_snapshot: Json<Record<string, unknown>>;
  status: Generated<ReportStatus>;
  assigned_to: string | null;
  report_count: Generated<number>;
  first_reported_at: Created;
  last_reported_at: Created;
  resolved_at: Timestamp | null;
  resolved_by: string | null;
  action: CaseAction | null;
}

export interface ReportsTable {
  id: Generated<string>;
  case_id: string;
  reporter_id: string | null;
  target_type: ReportTargetType;
  target_id: string;
  reason: ReportReason;
  details: string | null;
  status: Generated<ReportStatus>;
  outcome: ReportOutcome | null;
  created_at: Created;
  resolved_at: Timestamp | null;
}

/** What staff did on a case, in order: opened, assigned, resolved:<action>, dismissed. */
export interface ModerationCaseEventsTable {
  id: Generated<string>;
  case_id: string;
  actor_id: string | null;
  action: string;
  note: string | null;
  created_at: Created;
}

/**
 * What each (status, target_type, assigned) gained or lost, appended by triggers on moderation_cases
 * (migration 0028) and folded by a job: the queue's total is the sum of a key's rows.
 */
export interface ModerationCaseCountDeltasTable {
  status: ReportStatus;
  target_type: ReportTargetType;
  assigned: boolean;
  delta: number;
}

export type CaseRow = Selectable<ModerationCasesTable>;
export type ReportRow = Selectable<ReportsTable>;
export type CaseEventRow = Selectable<ModerationCaseEventsTable>;

/** The moderation area's tables. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    moderation_cases: ModerationCasesTable;
    reports: ReportsTable;
    moderation_case_events: ModerationCaseEventsTable;
    moderation_case_count_deltas: ModerationCaseCountDeltasTable;
  }
}

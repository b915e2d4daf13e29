import type { AppealStatus, AppealSubjectType, ModeratedContentType } from '@riff/contract';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

/**
 * One appeal: of a decision about the appellant's content (target_type names its kind), of a
 * sanction of their account, or of a copyright strike. `decided_by` has no foreign key: the
 * decision stays when the staff member's account is erased.
 */
export interface AppealsTable {
  id: Generated<string>;
  user_id: string;
  subject_type: AppealSubjectType;
  subject_id: string;
  target_type: ModeratedContentType | null;
  message: string;
  status: Generated<AppealStatus>;
  created_at: CreatedAt;
  decided_at: Timestamp | null;
  decided_by: string | null;
  note: string | null;
}

export type AppealRow = Selectable<AppealsTable>;
export type NewAppeal = Insertable<AppealsTable>;

/** The appeals area's table. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    appeals: AppealsTable;
  }
}

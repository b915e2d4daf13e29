import type { SanctionKind } from '@riff/contract';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

/**
 * One sanction of an account. `actor_id` and `lifted_by` have no foreign key: a sanction stays on
 * the sanctioned account's record when the staff member who decided it is erased.
 */
export interface SanctionsTable {
  id: Generated<string>;
  user_id: string;
  kind: SanctionKind;
  reason: string;
  /** Who decided it; null for the service itself (a rule, not a person). */
  actor_id: string | null;
  created_at: CreatedAt;
  /** When a suspension ends by itself; null for warnings, bans and suspensions only an admin lifts. */
  ends_at: Timestamp | null;
  lifted_at: Timestamp | null;
  /** Who lifted it; null when it ran out by itself. */
  lifted_by: string | null;
  /** SHA-256 of the one-time appeal link's token mailed with it; null once used (or for a warning). */
  appeal_token_hash: string | null;
}

export type SanctionRow = Selectable<SanctionsTable>;
export type NewSanction = Insertable<SanctionsTable>;

/** The sanctions area's table. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    sanctions: SanctionsTable;
  }
}

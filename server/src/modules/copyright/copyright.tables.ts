import type { CopyrightClaimStatus } from '@riff/contract';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

/**
 * A copyright claim against a track. The claimant's name, email and signature are cleared when
 * their account is erased (claimant_id too); the claim itself stays, as the track's record.
 */
export interface CopyrightClaimsTable {
  id: Generated<string>;
  track_id: string;
  /** The track's title when it was claimed (the parties' messages, staff's queue). */
  track_title: string;
  owner_id: string;
  claimant_id: string | null;
  claimant_name: string | null;
  claimant_email: string | null;
  work_description: string;
  original_url: string | null;
  statement_good_faith: boolean;
  statement_accuracy: boolean;
  signature: string | null;
  status: Generated<CopyrightClaimStatus>;
  created_at: CreatedAt;
  counter_deadline: Timestamp;
  counter_statement: string | null;
  counter_signature: string | null;
  countered_at: Timestamp | null;
  decided_at: Timestamp | null;
  /** The staff member who decided; null when the service upheld an unanswered claim. */
  decided_by: string | null;
  decision_note: string | null;
}

/** A strike on an account, from an upheld claim; active while neither expired nor lifted. */
export interface StrikesTable {
  id: Generated<string>;
  user_id: string;
  claim_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  /** When a granted appeal lifted it. */
  lifted_at: Timestamp | null;
  lifted_by: string | null;
}

export type ClaimRow = Selectable<CopyrightClaimsTable>;
export type NewClaim = Insertable<CopyrightClaimsTable>;
export type StrikeRow = Selectable<StrikesTable>;

/** The copyright area's tables. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    copyright_claims: CopyrightClaimsTable;
    strikes: StrikesTable;
  }
}

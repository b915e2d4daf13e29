import type { CopyrightClaim, StaffCopyrightClaim, Strike } from '@riff/contract';
import type { ClaimRow, StrikeRow } from './copyright.tables.js';

const iso = (at: Date | null) => (at ? at.toISOString() : null);

/** A claim as either party sees it: never the claimant's contact details. */
export function toClaimDto(row: ClaimRow): CopyrightClaim {
  return {
    id: row.id,
    track_id: row.track_id,
    status: row.status,
    work_description: row.work_description,
    created_at: row.created_at.toISOString(),
    counter_deadline: row.counter_deadline.toISOString(),
    decided_at: iso(row.decided_at),
  };
}

/** A claim as staff judge it. */
export function toStaffClaimDto(row: ClaimRow): StaffCopyrightClaim {
  return {
    id: row.id,
    track_id: row.track_id,
    track_title: row.track_title,
    owner_id: row.owner_id,
    claimant_id: row.claimant_id,
    claimant_name: row.claimant_name,
    claimant_email: row.claimant_email,
    work_description: row.work_description,
    original_url: row.original_url,
    statement_good_faith: row.statement_good_faith,
    statement_accuracy: row.statement_accuracy,
    signature: row.signature,
    status: row.status,
    created_at: row.created_at.toISOString(),
    counter_deadline: row.counter_deadline.toISOString(),
    counter_statement: row.counter_statement,
    counter_signature: row.counter_signature,
    countered_at: iso(row.countered_at),
    decided_at: iso(row.decided_at),
    decided_by: row.decided_by,
    decision_note: row.decision_note,
  };
}

/** What the claimant stated, for their data export. */
export const toClaimMadeDto = (row: ClaimRow) => ({
  ...toClaimDto(row),
  claimant_name: row.claimant_name,
  claimant_email: row.claimant_email,
  original_url: row.original_url,
  signature: row.signature,
});

/** The owner's counter-notice, for their data export. */
export const toClaimReceivedDto = (row: ClaimRow) => ({
  ...toClaimDto(row),
  counter_statement: row.counter_statement,
  counter_signature: row.counter_signature,
  countered_at: iso(row.countered_at),
});

export const isActiveStrike = (row: StrikeRow, now: Date) => row.lifted_at === null && row.expires_at > now;

export function toStrikeDto(row: StrikeRow, now: Date): Strike {
  return {
    id: row.id,
    claim_id: row.claim_id,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    active: isActiveStrike(row, now),
  };
}

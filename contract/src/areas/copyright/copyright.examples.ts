import { CREATED, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';

const CLAIM_ID = '3a8c1f5e-2b7d-4e9a-b6c4-d1e2f3a4b5c6';
const STRIKE_ID = '6e4d2c1b-9a8f-4e7d-a6c5-b4a3f2e1d0c9';

/** A claim decided against the track (the account export and /copyright/claims/mine show claims like this). */
export const copyrightClaim = {
  id: CLAIM_ID,
  track_id: TRACK_ID,
  status: 'upheld',
  work_description:
    'The song “Harbour Lights”, recorded and released by me in 2024; the track copies its master recording.',
  created_at: CREATED,
  counter_deadline: '2026-12-04T09:30:00.000Z',
  decided_at: UPDATED,
};

/** The strike that claim gave the track's owner. */
export const strike = {
  id: STRIKE_ID,
  claim_id: CLAIM_ID,
  created_at: UPDATED,
  expires_at: '2027-11-21T10:00:00.000Z',
  active: true,
};

const claimRequest = {
  track_id: TRACK_ID,
  claimant_name: 'Ana Lima',
  claimant_email: 'rights@analima.example',
  work_description: copyrightClaim.work_description,
  original_url: 'https://analima.example/harbour-lights',
  statement_good_faith: true,
  statement_accuracy: true,
  signature: 'Ana Lima',
};

export const claimMade = {
  ...copyrightClaim,
  claimant_name: claimRequest.claimant_name,
  claimant_email: claimRequest.claimant_email,
  original_url: claimRequest.original_url,
  signature: claimRequest.signature,
};

export const claimReceived = {
  ...copyrightClaim,
  counter_statement: null,
  counter_signature: null,
  countered_at: null,
};

const staffClaim = {
  id: CLAIM_ID,
  track_id: TRACK_ID,
  track_title: 'Night Drive',
  owner_id: USER_ID,
  claimant_id: OTHER_USER_ID,
  claimant_name: claimRequest.claimant_name,
  claimant_email: claimRequest.claimant_email,
  work_description: copyrightClaim.work_description,
  original_url: claimRequest.original_url,
  statement_good_faith: true,
  statement_accuracy: true,
  signature: claimRequest.signature,
  status: 'countered',
  created_at: CREATED,
  counter_deadline: copyrightClaim.counter_deadline,
  counter_statement: 'Night Drive is my own recording; it samples nothing of Harbour Lights.',
  counter_signature: 'Theo Martin',
  countered_at: UPDATED,
  decided_at: null,
  decided_by: null,
  decision_note: null,
};

export const COPYRIGHT_EXAMPLES: Record<string, unknown> = {
  CopyrightClaimStatus: 'pending',
  CopyrightClaim: copyrightClaim,
  Strike: strike,
  ExportedCopyrightClaimMade: claimMade,
  ExportedCopyrightClaimReceived: claimReceived,
  CreateCopyrightClaimRequest: claimRequest,
  CounterNoticeRequest: { statement: staffClaim.counter_statement, signature: staffClaim.counter_signature },
  DecideCopyrightClaimRequest: { outcome: 'rejected', note: 'The counter-notice shows a licence for the sample.' },
  StaffCopyrightClaim: staffClaim,
  CopyrightClaimReply: { claim: { ...copyrightClaim, status: 'pending', decided_at: null } },
  MyCopyrightClaims: { made: [], received: [copyrightClaim] },
  StaffCopyrightClaimReply: { claim: staffClaim },
  StaffCopyrightClaimPage: { claims: [staffClaim], pagination: onePage(1) },
};

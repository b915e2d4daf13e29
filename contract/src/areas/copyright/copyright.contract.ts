import { initContract } from '@ts-rest/core';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { staffRoute, userRoute } from '../../common/route-meta.js';
import {
  COPYRIGHT_CLAIMS_PER_DAY,
  COUNTER_NOTICE_DAYS,
  CopyrightClaimEnvelope,
  CounterNoticeRequestSchema,
  CreateCopyrightClaimRequestSchema,
  DecideClaimRequestSchema,
  MyCopyrightClaimsEnvelope,
  STRIKE_MONTHS,
  STRIKES_SUSPENSION,
  STRIKES_UPLOADS_DISABLED,
  StaffClaimsQuerySchema,
  StaffCopyrightClaimEnvelope,
  StaffCopyrightClaimPageEnvelope,
} from './copyright.schemas.js';

const c = initContract();

const STRIKES =
  `An upheld claim removes the track and gives its owner a strike for ${STRIKE_MONTHS} months: with ${STRIKES_UPLOADS_DISABLED} ` +
  `active strikes uploads are refused (403 UPLOADS_DISABLED), ${STRIKES_SUSPENSION} suspend the account until an admin lifts it.`;

/** Copyright claims against tracks, their counter-notices, staff's decisions, and strikes. */
export const copyrightContract = c.router({
  claim: {
    method: 'POST',
    path: '/copyright/claims',
    summary: 'Claim that a track infringes your copyright',
    description:
      `The track must be one you can see (else 404) and not yours (400). It is hidden at once (moderation_reason ` +
      `"copyright claim") and its owner is told the claim's text, never your email. One undecided claim per track and ` +
      `claimant (409 CONFLICT); at most ${COPYRIGHT_CLAIMS_PER_DAY} claims in 24 hours (429). Without a counter-notice ` +
      `within ${COUNTER_NOTICE_DAYS} days the claim is upheld. ${STRIKES}`,
    metadata: userRoute,
    body: CreateCopyrightClaimRequestSchema,
    responses: { 201: CopyrightClaimEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  counter: {
    method: 'POST',
    path: '/copyright/claims/:id/counter',
    summary: 'Answer a claim against your track with a counter-notice',
    description:
      `The track's owner only (the claimant and staff: 403; anyone else: 404), once (409), within ${COUNTER_NOTICE_DAYS} ` +
      'days of the claim (400 COUNTER_WINDOW_CLOSED). The claim waits for staff’s decision (countered).',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: CounterNoticeRequestSchema,
    responses: { 200: CopyrightClaimEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  myClaims: {
    method: 'GET',
    path: '/copyright/claims/mine',
    summary: 'Claims you filed and claims against your tracks',
    description: 'Neither side shows the claimant’s contact details.',
    metadata: userRoute,
    responses: { 200: MyCopyrightClaimsEnvelope, ...errors(401, 403) },
  },
  staffClaims: {
    method: 'GET',
    path: '/moderation/copyright',
    summary: 'Copyright claims (staff)',
    description: 'Oldest first, with both parties, their statements and the counter-notice.',
    metadata: staffRoute,
    query: StaffClaimsQuerySchema,
    responses: { 200: StaffCopyrightClaimPageEnvelope, ...errors(400, 401, 403) },
  },
  decide: {
    method: 'POST',
    path: '/moderation/copyright/:id/decide',
    summary: 'Decide a copyright claim (staff)',
    description:
      `rejected makes the track visible again (unless it is hidden for another reason); upheld removes it. ${STRIKES} ` +
      'Both parties are told. Staff never decide a claim on their own track or one they filed, and a moderator never ' +
      'one on an admin’s track (403); a decided claim is 409. Written to the staff log.',
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    body: DecideClaimRequestSchema,
    responses: { 200: StaffCopyrightClaimEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
});

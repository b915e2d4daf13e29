import { CREATED, OTHER_USER_ID } from '../../common/common.examples.js';

/** A running suspension (the account export lists the user's sanctions like this). */
export const suspension = {
  id: '9d3e7b21-4c5a-4f8e-a1b2-6c7d8e9f0a1b',
  kind: 'suspend',
  reason: 'Repeated harassment in comments after a warning',
  actor_id: OTHER_USER_ID,
  created_at: CREATED,
  ends_at: '2026-11-27T09:30:00.000Z',
  lifted_at: null,
  lifted_by: null,
};

export const SANCTIONS_EXAMPLES: Record<string, unknown> = {
  Sanction: suspension,
  SanctionReply: { sanction: suspension },
  WarnUserRequest: { reason: 'Spam links in comments' },
  SuspendUserRequest: { reason: suspension.reason, until: suspension.ends_at },
  BanUserRequest: { reason: 'Selling other artists’ tracks as their own' },
};

import type { AdminStats } from '@riff/contract';
import type { StandingReader } from './admin.service.js';

/**
 * Stand-ins for the moderation area's ports until that area is wired in modules/index.ts: no
 * account has reports, strikes or sanctions, and the queue is empty.
 */
export const noStanding: StandingReader = {
  standing: async () => new Map(),
  mostReported: async () => [],
};

export const NO_MODERATION_FIGURES: AdminStats['moderation'] = {
  open_reports: 0,
  open_cases: 0,
  pending_claims: 0,
  open_appeals: 0,
  median_hours_to_resolve: null,
};

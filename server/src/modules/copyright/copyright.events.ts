// The copyright area's domain events. Each is recorded once per party it concerns (`userId` that
// party, `party` which side they are on), so that a party's audit log, and the notification it
// brings, carry nothing of the other party: no address, no account, no contact details.
interface ClaimFacts {
  claim_id: string;
  track_id: string;
  track_title: string;
  party: 'owner' | 'claimant';
}

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    /** The owner's copy carries the claim's text (never the claimant's email). */
    'copyright.claimed': ClaimFacts & {
      claimant_name: string | null;
      work_description: string;
      original_url: string | null;
      counter_deadline: string;
    };
    'copyright.countered': ClaimFacts;
    /** by_staff: decided by staff, rather than upheld for want of a counter-notice. */
    'copyright.upheld': ClaimFacts & { by_staff: boolean };
    'copyright.rejected': ClaimFacts;
    /** active: the account's active strikes with this one. */
    'strike.added': { strike_id: string; claim_id: string; active: number; expires_at: string };
    'strike.lifted': { strike_id: string; claim_id: string };
  }
}

export {};

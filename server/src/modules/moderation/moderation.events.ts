import type { CaseAction, ModerationStatus, ReportOutcome, ReportReason, ReportTargetType } from '@riff/contract';

// The moderation area's domain events. Who acted is the event's actor (staff), never shown to
// users; `userId` is whom the event concerns: the reporter, or the owner of the moderated content.
declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'report.created': { target_type: ReportTargetType; target_id: string; reason: ReportReason };
    /** A report ended with its case; its reporter is told the outcome. */
    'report.closed': { target_type: ReportTargetType; target_id: string; outcome: ReportOutcome };
    'case.assigned': { target_type: ReportTargetType; target_id: string };
    'case.resolved': { target_type: ReportTargetType; target_id: string; action: CaseAction; reports: number };
    'case.dismissed': { target_type: ReportTargetType; target_id: string; reports: number };
    /** Staff changed the state of someone's content; its owner is always told. */
    'content.moderated': {
      target_type: ReportTargetType;
      status: ModerationStatus;
      previous: ModerationStatus;
      reason: string | null;
      title: string | null;
    };
  }
}

export {};

import type { AppealSubjectType, ModeratedContentType } from '@riff/contract';

// The appeals area's domain events, each about the appellant's account (userId the appellant): an
// audit entry in their log and, for a decision, a notification. Staff are never named in them.
interface AppealFacts {
  subject_type: AppealSubjectType;
  subject_id: string;
  target_type: ModeratedContentType | null;
}

declare module '../../platform/events/event-map.js' {
  interface EventMap {
    'appeal.created': AppealFacts;
    'appeal.granted': AppealFacts & { note: string };
    'appeal.denied': AppealFacts & { note: string };
  }
}

export {};

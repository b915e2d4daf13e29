/** Examples of the moderation area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, OTHER_USER_ID, TRACK_ID, UPDATED, onePage } from '../../common/common.examples.js';
import { profile } from '../users/users.examples.js';
import type {
  ContentState,
  CreateReportRequest,
  ModerationCase,
  ModerationCaseDetail,
  Report,
  ResolveCaseRequest,
} from './moderation.schemas.js';

const STAFF_ID = '2a9e4c6b-8d1f-4e3a-b5c7-0d9f1e2a3b4c';

const createReport: CreateReportRequest = {
  target_type: 'track',
  target_id: TRACK_ID,
  reason: 'hate',
  details: 'The title insults a group of people',
};

const report: Report = {
  id: '6c8e0a2b-4d6f-4a1c-9e3b-5d7f9a1c3e5b',
  target_type: 'track',
  target_id: TRACK_ID,
  reason: 'hate',
  details: 'The title insults a group of people',
  status: 'resolved',
  created_at: CREATED,
  resolved_at: UPDATED,
  outcome: 'action_taken',
};

const moderationCase: ModerationCase = {
  target_type: 'track',
  target_id: TRACK_ID,
  target_snapshot: { title: 'Night Drive', artist: 'Mira Vale', stream_path: `/api/v1/tracks/${TRACK_ID}/stream` },
  owner: profile,
  report_count: 3,
  reasons: { hate: 2, harassment: 1 },
  first_reported_at: CREATED,
  last_reported_at: UPDATED,
  assigned_to: STAFF_ID,
  status: 'open',
};

const caseReport = { ...report, status: 'open' as const, resolved_at: null, outcome: null, reporter_id: OTHER_USER_ID };
const caseEvent = { action: 'assigned', actor_id: STAFF_ID, note: null, created_at: UPDATED };

const caseDetail: ModerationCaseDetail = {
  ...moderationCase,
  reports: [caseReport],
  history: [caseEvent],
  current: { moderation_status: 'visible', moderation_reason: null },
};

const resolve: ResolveCaseRequest = { action: 'suspend', note: 'Third hateful upload this month', duration_days: 7 };

const content: ContentState = {
  target_type: 'track',
  target_id: TRACK_ID,
  moderation_status: 'hidden',
  moderation_reason: 'Under review: reported as stolen music',
};

export const MODERATION_EXAMPLES: Record<string, unknown> = {
  CreateReportRequest: createReport,
  ReportOutcome: 'action_taken',
  Report: report,
  ReportReply: { report },
  ReportPage: { reports: [report], pagination: onePage(1) },
  ModerationCase: moderationCase,
  ModerationQueue: { cases: [moderationCase], pagination: onePage(1) },
  CaseReport: caseReport,
  CaseEvent: caseEvent,
  ModerationCaseDetail: caseDetail,
  ModerationCaseReply: { case: caseDetail },
  ResolveCaseRequest: resolve,
  StaffNoteRequest: { note: 'Reviewed: within the rules' },
  ContentState: content,
  ContentStateReply: { content },
};

import { initContract } from '@ts-rest/core';
import { PaginationQuerySchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { staffRoute, userRoute } from '../../common/route-meta.js';
import {
  CaseParamsSchema,
  ContentParamsSchema,
  ContentStateReplySchema,
  CreateReportRequestSchema,
  MODERATOR_SUSPENSION_MAX_DAYS,
  ModerationCaseReplySchema,
  ModerationQueueQuerySchema,
  ModerationQueueSchema,
  REPORTS_PER_DAY,
  ReportPageSchema,
  ReportReplySchema,
  ResolveCaseRequestSchema,
  StaffNoteRequestSchema,
} from './moderation.schemas.js';

const c = initContract();

const STAFF_LIMITS =
  `Staff never act on their own content or account, and a moderator never on an admin's (403). A moderator suspends for at most ${MODERATOR_SUSPENSION_MAX_DAYS} days; ` +
  'longer suspensions and bans are for admins (403). Every action is written to the staff log.';

const contentAction = (verb: 'hide' | 'restore' | 'remove', summary: string, description: string) => ({
  method: 'POST' as const,
  path: `/moderation/content/:target_type/:id/${verb}`,
  summary,
  description: `${description} Without a report; the owner is notified. ${STAFF_LIMITS}`,
  metadata: staffRoute,
  pathParams: ContentParamsSchema,
  body: StaffNoteRequestSchema,
  responses: { 200: envelope(ContentStateReplySchema), ...errors(400, 401, 403, 404, 409, 413, 415) },
});

/** Reports by users, and the moderation queue and content actions of staff. */
export const moderationContract = c.router({
  report: {
    method: 'POST',
    path: '/reports',
    summary: 'Report something',
    description:
      `A track, comment, user, playlist or product you can see (else 404); reporting yourself or your own content is 400. ` +
      `One open report per target: a second is 409 CONFLICT with the first's id in details. At most ${REPORTS_PER_DAY} reports in 24 hours (429).`,
    metadata: userRoute,
    body: CreateReportRequestSchema,
    responses: { 201: envelope(ReportReplySchema), ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  myReports: {
    method: 'GET',
    path: '/reports/mine',
    summary: 'Your reports and their outcome',
    description: 'Newest first. The outcome says whether action was taken, never by whom.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: envelope(ReportPageSchema), ...errors(400, 401, 403) },
  },
  queue: {
    method: 'GET',
    path: '/moderation/reports',
    summary: 'The moderation queue',
    description:
      'Reports grouped by target (a case), most reported first, then oldest. `assigned`: me, none or any. `reason`: cases with at least one report for it. ' +
      'Cases about the caller’s own account or content are left out.',
    metadata: staffRoute,
    query: ModerationQueueQuerySchema,
    responses: { 200: envelope(ModerationQueueSchema), ...errors(400, 401, 403) },
  },
  getCase: {
    method: 'GET',
    path: '/moderation/cases/:target_type/:target_id',
    summary: 'A case with its reports and history',
    description:
      'The newest case of the target (open, else the last closed one). A case about the caller’s own account or content is 403: it names who reported them.',
    metadata: staffRoute,
    pathParams: CaseParamsSchema,
    responses: { 200: envelope(ModerationCaseReplySchema), ...errors(400, 401, 403, 404) },
  },
  assignCase: {
    method: 'POST',
    path: '/moderation/cases/:target_type/:target_id/assign',
    summary: 'Take an open case',
    description:
      'Assigns the open case to the caller (whoever had it before); not a case about their own account or content (403).',
    metadata: staffRoute,
    pathParams: CaseParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(ModerationCaseReplySchema), ...errors(400, 401, 403, 404) },
  },
  resolveCase: {
    method: 'POST',
    path: '/moderation/cases/:target_type/:target_id/resolve',
    summary: 'Resolve an open case',
    description:
      'Resolves every open report of the target at once with an action: none, hide or remove (content), warn, suspend (`duration_days`) or ban (its owner). ' +
      `Reporters are told "action taken" or "no violation". ${STAFF_LIMITS}`,
    metadata: staffRoute,
    pathParams: CaseParamsSchema,
    body: ResolveCaseRequestSchema,
    responses: { 200: envelope(ModerationCaseReplySchema), ...errors(400, 401, 403, 404, 413, 415) },
  },
  dismissCase: {
    method: 'POST',
    path: '/moderation/cases/:target_type/:target_id/dismiss',
    summary: 'Dismiss an open case',
    description: 'Every open report of the target ends as no violation; reporters are told.',
    metadata: staffRoute,
    pathParams: CaseParamsSchema,
    body: StaffNoteRequestSchema,
    responses: { 200: envelope(ModerationCaseReplySchema), ...errors(400, 401, 403, 404, 413, 415) },
  },
  hideContent: contentAction(
    'hide',
    'Hide content',
    'Hidden content is, for everyone but its owner and staff, as if deleted; it can be restored.',
  ),
  restoreContent: contentAction(
    'restore',
    'Restore hidden or removed content',
    'Makes it visible again. A banned account’s content stays hidden until the ban is lifted (409).',
  ),
  removeContent: contentAction(
    'remove',
    'Remove content',
    'Removed content is, for everyone but its owner and staff, as if deleted; its owner can no longer edit or publish it, and its files are purged 30 days later unless an appeal is open.',
  ),
});

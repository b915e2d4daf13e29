import { initContract } from '@ts-rest/core';
import { IdParamsSchema, PaginationQuerySchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { publicRoute, staffRoute, userRoute } from '../../common/route-meta.js';
import {
  APPEAL_MESSAGE_MAX,
  AppealByTokenRequestSchema,
  AppealEnvelope,
  AppealPageEnvelope,
  AppealQueueQuerySchema,
  CreateAppealRequestSchema,
  DecideAppealRequestSchema,
  StaffAppealEnvelope,
  StaffAppealPageEnvelope,
  StandingEnvelope,
} from './appeals.schemas.js';

const c = initContract();

const ONE_OPEN =
  'One open appeal per subject: a second is 409 CONFLICT with the first’s id in details (field appeal_id).';

/** Appeals of moderation decisions, sanctions and strikes, the account's standing, and staff's decisions on appeals. */
export const appealsContract = c.router({
  standing: {
    method: 'GET',
    path: '/users/me/standing',
    summary: 'Your standing: what you may appeal',
    description:
      'Your sanctions (newest first), your copyright strikes, and your content that moderation hid or removed, with its reason.',
    metadata: userRoute,
    responses: { 200: StandingEnvelope, ...errors(401, 403) },
  },
  create: {
    method: 'POST',
    path: '/appeals',
    summary: 'Appeal a decision',
    description:
      `content: the id of your hidden or removed track, comment, playlist or product; sanction: the id of a sanction of your ` +
      `account that is not lifted; strike: the id of one of your active strikes. Anything else is 404. The message is ` +
      `1–${APPEAL_MESSAGE_MAX} characters. ${ONE_OPEN}`,
    metadata: userRoute,
    body: CreateAppealRequestSchema,
    responses: { 201: AppealEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  createByToken: {
    method: 'POST',
    path: '/appeals/by-token',
    summary: 'Appeal a suspension or ban by its mailed link',
    description:
      'For a suspended or banned account, which cannot sign in: the token of the one-time link mailed with the sanction names it. ' +
      `The token is used up by an appeal; an unknown or used one is 400 INVALID_TOKEN. ${ONE_OPEN}`,
    metadata: publicRoute,
    body: AppealByTokenRequestSchema,
    responses: { 201: AppealEnvelope, ...errors(400, 404, 409, 413, 415) },
  },
  mine: {
    method: 'GET',
    path: '/appeals/mine',
    summary: 'Your appeals and their outcome',
    description: 'Newest first. The outcome and staff’s note, never who decided.',
    metadata: userRoute,
    query: PaginationQuerySchema,
    responses: { 200: AppealPageEnvelope, ...errors(400, 401, 403) },
  },
  queue: {
    method: 'GET',
    path: '/moderation/appeals',
    summary: 'Appeals to decide (staff)',
    description: 'Appeals of one status (default open), oldest first, with the appellant’s id.',
    metadata: staffRoute,
    query: AppealQueueQuerySchema,
    responses: { 200: StaffAppealPageEnvelope, ...errors(400, 401, 403) },
  },
  decide: {
    method: 'POST',
    path: '/moderation/appeals/:id/decide',
    summary: 'Grant or deny an appeal (staff)',
    description:
      'granted restores the content, lifts the suspension or ban (a ban, or a suspension longer than a moderator may give, ' +
      'only by an admin) or the strike; a warning is only marked granted. The staff member who took the decision appealed ' +
      'against (who hid or removed the content, upheld the claim, gave the sanction) may not decide (403), nor may staff decide ' +
      'their own appeal, nor a moderator an admin’s (403). An appeal already decided is 409, and so is granting an appeal of ' +
      'content while its owner is banned (the ban keeps it hidden until it is lifted). The appellant is notified; ' +
      'the decision is in the staff log.',
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    body: DecideAppealRequestSchema,
    responses: { 200: StaffAppealEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
});

import { initContract } from '@ts-rest/core';
import { IdParamsSchema } from '../../common/common.schemas.js';
import { errors } from '../../common/envelope.schemas.js';
import { adminRoute, staffRoute } from '../../common/route-meta.js';
import {
  BanUserRequestSchema,
  SanctionEnvelope,
  SuspendUserRequestSchema,
  WarnUserRequestSchema,
} from './sanctions.schemas.js';
import { MODERATOR_SUSPENSION_MAX_DAYS, SUSPENSION_MAX_DAYS } from '../moderation/moderation-states.js';

const c = initContract();

const STAFF_RULES =
  'Staff never sanction their own account, and a moderator never an admin (403). The user is told by a notification ' +
  '(whatever their preferences) and a mail; each sanction is in the staff log.';
const LONGER_SUSPENSION =
  `A running suspension that a moderator could not have given (ending more than ${MODERATOR_SUSPENSION_MAX_DAYS} days ` +
  'from now, or without an end, as three copyright strikes give) is lifted or replaced by an admin only (403).';
const SIGNED_OUT =
  'It takes effect at once: access and refresh tokens, API and webhook keys stop working, open WebSockets close, ' +
  'webhooks stop delivering and the user’s pending orders fail; signing in answers 401';

/** Staff's sanctions of an account: warnings, suspensions and bans. */
export const sanctionsContract = c.router({
  warn: {
    method: 'POST',
    path: '/admin/users/:id/warn',
    summary: 'Warn a user (staff)',
    description: `A warning changes nothing but the user's record. ${STAFF_RULES}`,
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    body: WarnUserRequestSchema,
    responses: { 201: SanctionEnvelope, ...errors(400, 401, 403, 404, 413, 415) },
  },
  suspend: {
    method: 'POST',
    path: '/admin/users/:id/suspend',
    summary: 'Suspend a user until a date (staff)',
    description:
      `${SIGNED_OUT} ACCOUNT_SUSPENDED (with details.until) until \`until\`, when it ends by itself. A moderator may suspend ` +
      `at most ${MODERATOR_SUSPENSION_MAX_DAYS} days ahead, an admin ${SUSPENSION_MAX_DAYS}. A new suspension replaces a ` +
      `running one; a banned user is not suspended (409). ${LONGER_SUSPENSION} ${STAFF_RULES}`,
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    body: SuspendUserRequestSchema,
    responses: { 201: SanctionEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  unsuspend: {
    method: 'POST',
    path: '/admin/users/:id/unsuspend',
    summary: 'Lift a user’s suspension (staff)',
    description: `Replies the suspension, lifted. 409 when the user is not suspended. ${LONGER_SUSPENSION} ${STAFF_RULES}`,
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: SanctionEnvelope, ...errors(400, 401, 403, 404, 409) },
  },
  ban: {
    method: 'POST',
    path: '/admin/users/:id/ban',
    summary: 'Ban a user (admin)',
    description:
      `${SIGNED_OUT} ACCOUNT_BANNED. The profile and all of the user's content are hidden (restored on unban), their ` +
      `products archived; buyers keep their completed purchases. 409 when already banned. ${STAFF_RULES}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: BanUserRequestSchema,
    responses: { 201: SanctionEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  unban: {
    method: 'POST',
    path: '/admin/users/:id/unban',
    summary: 'Lift a user’s ban (admin)',
    description: `Replies the ban, lifted; the content the ban hid is visible again. 409 when the user is not banned. ${STAFF_RULES}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: SanctionEnvelope, ...errors(400, 401, 403, 404, 409) },
  },
});

import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { adminRoute, publicRoute, staffRoute } from '../../common/route-meta.js';
import {
  AdminStatsQuerySchema,
  AdminStatsSchema,
  AdminUserListQuerySchema,
  AdminUserPageSchema,
  AdminUserReplySchema,
  AnnouncementSchema,
  PlatformSettingsReplySchema,
  SetUserQuotaRequestSchema,
  SetUserRoleRequestSchema,
  StaffLogPageSchema,
  StaffLogQuerySchema,
  UpdatePlatformSettingsRequestSchema,
  AnnouncementQueuedSchema,
  SendAnnouncementRequestSchema,
} from './admin.schemas.js';

const c = initContract();

const LOGGED = 'Recorded in the staff log (GET /admin/audit) with the values before and after.';

/** Administration: the platform's settings, accounts as staff see them, figures and the staff log. */
export const adminContract = c.router({
  getSettings: {
    method: 'GET',
    path: '/admin/settings',
    summary: 'The platform’s settings',
    metadata: adminRoute,
    responses: { 200: envelope(PlatformSettingsReplySchema), ...errors(401, 403) },
  },
  updateSettings: {
    method: 'PUT',
    path: '/admin/settings',
    summary: 'Change the platform’s settings',
    description:
      'Any of the settings; the others keep their values. Takes effect at once: registration closed makes POST /auth/register ' +
      '403 REGISTRATION_CLOSED, uploads off make every audio upload 403 UPLOADS_DISABLED, default_quota_bytes is the quota of ' +
      `every account without its own, max_upload_bytes caps each audio file. ${LOGGED}`,
    metadata: adminRoute,
    body: UpdatePlatformSettingsRequestSchema,
    responses: { 200: envelope(PlatformSettingsReplySchema), ...errors(400, 401, 403, 413, 415) },
  },
  announcement: {
    method: 'GET',
    path: '/config/announcement',
    summary: 'The admins’ announcement',
    description: 'The message the admins show to everyone, or null.',
    metadata: publicRoute,
    responses: { 200: envelope(AnnouncementSchema) },
  },
  listUsers: {
    method: 'GET',
    path: '/admin/users',
    summary: 'Accounts, as staff see them',
    description:
      'Every account, deleted ones included (status deleted), with its email, sign-ins, quota, open reports, strikes and sanctions. ' +
      '`q` matches part of the username or email; `sort=reports` puts the most reported first.',
    metadata: staffRoute,
    query: AdminUserListQuerySchema,
    responses: { 200: envelope(AdminUserPageSchema), ...errors(400, 401, 403) },
  },
  getUser: {
    method: 'GET',
    path: '/admin/users/:id',
    summary: 'One account, as staff see it',
    metadata: staffRoute,
    pathParams: IdParamsSchema,
    responses: { 200: envelope(AdminUserReplySchema), ...errors(400, 401, 403, 404) },
  },
  setRole: {
    method: 'PUT',
    path: '/admin/users/:id/role',
    summary: 'Change an account’s role',
    description:
      'role admin also makes is_admin true, any other role false. Nobody changes their own role, and the last admin cannot be ' +
      `demoted (400 BAD_REQUEST). The account's tokens keep working: rights are read on every request. ${LOGGED}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: SetUserRoleRequestSchema,
    responses: { 200: envelope(AdminUserReplySchema), ...errors(400, 401, 403, 404, 413, 415) },
  },
  verifyEmail: {
    method: 'POST',
    path: '/admin/users/:id/verify-email',
    summary: 'Mark an account’s email verified',
    description: `The account may sign in from now on; an address listed in ADMIN_EMAILS becomes admin. ${LOGGED}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(AdminUserReplySchema), ...errors(400, 401, 403, 404) },
  },
  setQuota: {
    method: 'PUT',
    path: '/admin/users/:id/quota',
    summary: 'Set an account’s upload quota',
    description: `limit_bytes null returns the account to the platform's default quota. ${LOGGED}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: SetUserQuotaRequestSchema,
    responses: { 200: envelope(AdminUserReplySchema), ...errors(400, 401, 403, 404, 413, 415) },
  },
  revokeSessions: {
    method: 'POST',
    path: '/admin/users/:id/revoke-sessions',
    summary: 'Sign an account out everywhere',
    description: `Every access token stops working at once and every refresh token is revoked. ${LOGGED}`,
    metadata: adminRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  announce: {
    method: 'POST',
    path: '/admin/announcements',
    summary: 'Send an announcement to every user or every creator',
    description:
      'Queued at once (202) and sent by a job in batches: each active account of the audience gets a notification of type ' +
      `announcement (in the inbox unless they turned that type off; by mail in their digest if they chose it), live on open sockets. ${LOGGED}`,
    metadata: adminRoute,
    body: SendAnnouncementRequestSchema,
    responses: { 202: envelope(AnnouncementQueuedSchema), ...errors(400, 401, 403, 413, 415) },
  },
  stats: {
    method: 'GET',
    path: '/admin/stats',
    summary: 'The platform’s figures',
    description: 'Totals now, and what is new within the period (default 30d).',
    metadata: adminRoute,
    query: AdminStatsQuerySchema,
    responses: { 200: envelope(AdminStatsSchema), ...errors(400, 401, 403) },
  },
  audit: {
    method: 'GET',
    path: '/admin/audit',
    summary: 'The staff log',
    description:
      'Every staff action (sanctions, role changes, settings, content actions, decisions), newest first; append-only. ' +
      'An erased staff member’s entries stay under a pseudonymous actor_id.',
    metadata: adminRoute,
    query: StaffLogQuerySchema,
    responses: { 200: envelope(StaffLogPageSchema), ...errors(400, 401, 403) },
  },
});

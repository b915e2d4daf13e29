import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { MessageSchema, TimestampSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { userOnlyRoute, userRoute } from '../../common/route-meta.js';
import {
  DeleteAccountRequestSchema,
  PreferencesEnvelope,
  UpdatePreferencesRequestSchema,
  UserExportSchema,
  UserSchema,
} from './users.schemas.js';

const c = initContract();

/** Your own account: creator upgrade, privacy, preferences, data export and deletion. */
export const accountContract = c.router({
  upgradeCreator: {
    method: 'POST',
    path: '/users/me/upgrade-creator',
    summary: 'Become a creator',
    description:
      'Role becomes creator; promoted_to_creator_at is set the first time and never moves after. Idempotent.',
    metadata: userOnlyRoute,
    body: c.noBody(),
    responses: { 200: envelope(named('UserReply', z.object({ user: UserSchema }))), ...errors(400, 401, 403) },
  },
  privacyOptOut: {
    method: 'POST',
    path: '/users/me/privacy/opt-out',
    summary: 'Do not sell my data',
    description: 'Saves the do-not-sell preference. Idempotent.',
    metadata: userOnlyRoute,
    body: c.noBody(),
    responses: {
      200: envelope(named('PrivacyOptOut', z.object({ do_not_sell: z.literal(true), opted_out_at: TimestampSchema }))),
      ...errors(400, 401, 403),
    },
  },
  getPreferences: {
    method: 'GET',
    path: '/users/me/preferences',
    summary: 'Your preferences',
    metadata: userRoute,
    responses: { 200: PreferencesEnvelope, ...errors(401, 403) },
  },
  updatePreferences: {
    method: 'PUT',
    path: '/users/me/preferences',
    summary: 'Change your preferences',
    description: 'Merges the fields sent into the stored preferences.',
    metadata: userRoute,
    body: UpdatePreferencesRequestSchema,
    responses: { 200: PreferencesEnvelope, ...errors(400, 401, 403, 413, 415) },
  },
  exportData: {
    method: 'GET',
    path: '/users/me/export',
    summary: 'Export your data',
    description: 'Everything the service holds about you, as one JSON document (sent as an attachment).',
    metadata: userOnlyRoute,
    responses: { 200: UserExportSchema, ...errors(401, 403) },
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/users/me',
    summary: 'Delete your account',
    description:
      'Permanent: the account is anonymized (no email, names or profile text remain; the username is replaced), every session ' +
      'is revoked and an audit entry is written. With keep_public_tracks, public tracks stay attributed to the deleted account.',
    metadata: userOnlyRoute,
    body: DeleteAccountRequestSchema,
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 413, 415) },
  },
});

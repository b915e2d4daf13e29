import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userOnlyRoute } from '../../common/route-meta.js';
import {
  APP_PASSWORD_LENGTH,
  APP_PASSWORDS_PER_USER_MAX,
  AppPasswordListSchema,
  CreateAppPasswordRequestSchema,
  CreatedAppPasswordSchema,
} from './subsonic.schemas.js';

const c = initContract();

const APP_PASSWORD_RULES =
  'A Subsonic player app (Symfonium, Feishin, DSub, …) signs in at `/rest/` with your username and an app password, sent as ' +
  '`t`+`s` (md5 of the password and a salt) or as `p` (clear or `enc:` hex); your account password never works there. ' +
  'An API key works too (`apiKey=`), with its scopes. The Subsonic interface itself is not part of this JSON API: docs/subsonic.md ' +
  'lists its methods. Managed with a bearer token only: an API key gets 403 INSUFFICIENT_SCOPE.';

/** App passwords: the credentials Subsonic apps sign in with. */
export const subsonicContract = c.router({
  listAppPasswords: {
    method: 'GET',
    path: '/users/me/app-passwords',
    summary: 'Your app passwords',
    description: `Every app password of the caller, newest first (not paginated: at most ${APP_PASSWORDS_PER_USER_MAX}). The passwords themselves are never shown again.`,
    metadata: userOnlyRoute,
    responses: { 200: envelope(AppPasswordListSchema), ...errors(401, 403) },
  },
  createAppPassword: {
    method: 'POST',
    path: '/users/me/app-passwords',
    summary: 'Create an app password for a Subsonic app',
    description:
      `The password (${APP_PASSWORD_LENGTH} letters and digits) is in this reply only. At most ${APP_PASSWORDS_PER_USER_MAX} per user ` +
      `(400 LIMIT_REACHED). ${APP_PASSWORD_RULES}`,
    metadata: userOnlyRoute,
    body: CreateAppPasswordRequestSchema,
    responses: { 201: envelope(CreatedAppPasswordSchema), ...errors(400, 401, 403, 413, 415) },
  },
  revokeAppPassword: {
    method: 'DELETE',
    path: '/users/me/app-passwords/:id',
    summary: 'Revoke an app password',
    description:
      'An app signed in with it is refused from its next request on (Subsonic error 40). Another user’s is 404.',
    metadata: userOnlyRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
});

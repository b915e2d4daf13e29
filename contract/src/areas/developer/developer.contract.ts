import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userOnlyRoute } from '../../common/route-meta.js';
import {
  API_KEY_READS_PER_HOUR,
  API_KEY_WRITES_PER_HOUR,
  API_KEYS_PER_USER_MAX,
  ApiKeyListSchema,
  CreateApiKeyRequestSchema,
  CreatedApiKeySchema,
} from './developer.schemas.js';

const c = initContract();

const KEY_RULES =
  'A key is sent as `X-API-Key: <key>` or `Authorization: Bearer <key>`. Scope read allows GET and HEAD, write allows POST, PUT, ' +
  'PATCH and DELETE, admin everything; otherwise 403 INSUFFICIENT_SCOPE. A key never performs account-security operations ' +
  `(password, two-factor, sessions, API keys, webhook secrets, account deletion): 403 INSUFFICIENT_SCOPE. Per key, ${API_KEY_READS_PER_HOUR} ` +
  `reads and ${API_KEY_WRITES_PER_HOUR} writes an hour, counted apart and shared by every instance; every reply to a key-authenticated ` +
  'request carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset (unix seconds), and past the limit the reply is ' +
  '429 RATE_LIMITED with Retry-After. An expired or revoked key is 401.';

/** Developer API keys. Managed with a bearer token only. */
export const developerContract = c.router({
  listApiKeys: {
    method: 'GET',
    path: '/developer/api-keys',
    summary: 'Your API keys',
    description: `Every key of the caller, newest first, expired ones included (not paginated: at most ${API_KEYS_PER_USER_MAX}). Only each key’s prefix is shown.`,
    metadata: userOnlyRoute,
    responses: { 200: envelope(ApiKeyListSchema), ...errors(401, 403) },
  },
  createApiKey: {
    method: 'POST',
    path: '/developer/api-keys',
    summary: 'Create an API key',
    description:
      `The whole key is in this reply only (it is stored hashed). At most ${API_KEYS_PER_USER_MAX} keys per user (400 LIMIT_REACHED). ` +
      KEY_RULES,
    metadata: userOnlyRoute,
    body: CreateApiKeyRequestSchema,
    responses: { 201: envelope(CreatedApiKeySchema), ...errors(400, 401, 403, 413, 415) },
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/developer/api-keys/:id',
    summary: 'Revoke an API key',
    description: 'The key stops working at once (401). Another user’s key is 404.',
    metadata: userOnlyRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
});

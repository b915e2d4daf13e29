import { z } from 'zod';
import { ClientTimestampSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { API_KEY_SCOPES } from '../../common/route-meta.js';

/** Developer keys a user may hold at once: the next is 400 LIMIT_REACHED. */
export const API_KEYS_PER_USER_MAX = 25;
/** `riff_` and 40 random base62 characters. */
export const API_KEY_PREFIX = 'riff_';
export const API_KEY_RANDOM_LENGTH = 40;
/** The part of a key shown in lists: its first 12 characters. */
export const API_KEY_SHOWN_LENGTH = 12;
/** Reads and writes one key may make per hour, counted separately. */
export const API_KEY_READS_PER_HOUR = 1000;
export const API_KEY_WRITES_PER_HOUR = 200;

export const ApiKeyScopeSchema = named('ApiKeyScope', z.enum(API_KEY_SCOPES)).describe(
  'read: GET and HEAD; write: POST, PUT, PATCH and DELETE; admin: everything',
);

export const ApiKeySchema = named(
  'ApiKey',
  z.object({
    id: UuidSchema,
    name: z.string(),
    prefix: z
      .string()
      .describe(
        `The key’s first ${API_KEY_SHOWN_LENGTH} characters, to tell keys apart; the whole key is shown only when created`,
      ),
    scopes: z.array(ApiKeyScopeSchema),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable().describe(
      'When the key last authenticated a request (updated at most once a minute)',
    ),
    expires_at: TimestampSchema.nullable().describe('Null: the key does not expire'),
  }),
);
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreateApiKeyRequestSchema = named(
  'CreateApiKeyRequest',
  z.object({
    name: z.string().trim().min(1).max(100).describe('1–100 characters, to recognise the key by'),
    scopes: z
      .array(ApiKeyScopeSchema)
      .min(1)
      .max(API_KEY_SCOPES.length)
      .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope')
      .describe('One or more of read, write, admin'),
    expires_at: ClientTimestampSchema.optional().describe(
      'RFC 3339; must be in the future (400 otherwise). Absent: the key does not expire',
    ),
  }),
);
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

export const CreatedApiKeySchema = named(
  'CreatedApiKey',
  z.object({
    api_key: ApiKeySchema,
    key: z.string().describe('The whole key, `riff_` and 40 letters and digits. It is shown only here: store it now'),
  }),
);

export const ApiKeyListSchema = named('ApiKeyList', z.object({ api_keys: z.array(ApiKeySchema) }));

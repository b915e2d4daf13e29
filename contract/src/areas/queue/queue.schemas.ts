import { z } from 'zod';
import { ShareTokenSchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';

/** The play queue and shared listening sessions. */
export const QUEUE_REPEAT_MODES = ['off', 'one', 'all'] as const;
export type QueueRepeatMode = (typeof QUEUE_REPEAT_MODES)[number];

/** At most this many items in a queue, and in a shared session. */
export const QUEUE_MAX_ITEMS = 1000;
/** A chat message over the live-session socket: 1 to this many characters. */
export const CHAT_TEXT_MAX = 1000;
/** The chat messages sent with `subscribed`. */
export const CHAT_HISTORY_LIMIT = 200;
/** A shared session ends this long after its last change. */
export const SESSION_TTL_HOURS = 24;

const positionSeconds = z.number().min(0).max(1_000_000).describe('Seconds into the current item');
const currentIndex = z
  .number()
  .int()
  .min(0)
  .max(QUEUE_MAX_ITEMS - 1)
  .describe('Position of the current item (0 when empty)');
const queueTrack = named(
  'QueueTrack',
  TrackSchema.nullable().describe('The track as the caller may see it; null once it was deleted or made private'),
);

export const QueueItemSchema = named(
  'QueueItem',
  z.object({
    id: UuidSchema,
    track_id: UuidSchema,
    track: queueTrack,
    position: z.number().int().min(0).describe('0…n-1, without gaps'),
    added_at: TimestampSchema,
  }),
);
export type QueueItem = z.infer<typeof QueueItemSchema>;

export const QueueSchema = named(
  'Queue',
  z.object({
    items: z.array(QueueItemSchema).describe('In play order'),
    current_index: currentIndex,
    position_seconds: positionSeconds,
    shuffle: z.boolean(),
    repeat: z.enum(QUEUE_REPEAT_MODES),
    version: z
      .number()
      .int()
      .min(0)
      .describe('Goes up with every write; the ETag is this number, quoted. Send it back in If-Match'),
    updated_at: TimestampSchema.nullable().describe('null until the queue is first written'),
  }),
);
export type Queue = z.infer<typeof QueueSchema>;

export const UpdateQueueRequestSchema = named(
  'UpdateQueueRequest',
  z.object({
    track_ids: z
      .array(UuidSchema)
      .max(QUEUE_MAX_ITEMS)
      .optional()
      .describe(
        'The complete new list of items, in order (a track may appear more than once); each must be visible to you (404 otherwise)',
      ),
    current_index: currentIndex.optional().describe('Must name an item of the resulting queue (0 when it is empty)'),
    position_seconds: positionSeconds.optional(),
    shuffle: z.boolean().optional(),
    repeat: z.enum(QUEUE_REPEAT_MODES).optional(),
  }),
);
export type UpdateQueueRequest = z.infer<typeof UpdateQueueRequestSchema>;

export const AddQueueItemRequestSchema = named(
  'AddQueueItemRequest',
  z.object({
    track_id: UuidSchema,
    play_next: z.boolean().optional().describe('Insert right after the current item instead of at the end'),
  }),
);
export type AddQueueItemRequest = z.infer<typeof AddQueueItemRequestSchema>;

/** If-Match on queue writes: the bare version, or quoted as an ETag (`"7"`, `W/"7"`), or `*`. */
export const IfMatchHeadersSchema = z.object({
  'if-match': z
    .string()
    .max(64)
    .regex(/^\s*(\*|(W\/)?"?\d{1,15}"?)\s*$/, 'must be the queue version, bare or quoted')
    .optional()
    .describe('The version you last read; a stale one answers 412 PRECONDITION_FAILED and changes nothing'),
});

export const SessionUserSchema = named('SessionUser', z.object({ id: UuidSchema, username: z.string() }));
export type SessionUser = z.infer<typeof SessionUserSchema>;
const formerUser = named(
  'SessionUserOrNull',
  SessionUserSchema.nullable().describe('null once that account was deleted'),
);

export const QueueSessionItemSchema = named(
  'QueueSessionItem',
  z.object({
    id: UuidSchema,
    track_id: UuidSchema,
    track: queueTrack,
    position: z.number().int().min(0).describe('0…n-1, without gaps'),
    added_by: formerUser,
    added_at: TimestampSchema,
  }),
);
export type QueueSessionItem = z.infer<typeof QueueSessionItemSchema>;

export const QueueSessionSchema = named(
  'QueueSession',
  z.object({
    token: z
      .string()
      .describe('The share token: whoever holds it may read the session, and signed-in holders may join'),
    share_url: z.string().url(),
    host: SessionUserSchema,
    title: z.string().nullable(),
    items: z.array(QueueSessionItemSchema),
    current_index: currentIndex,
    position_seconds: positionSeconds,
    is_playing: z.boolean(),
    participants_count: z
      .number()
      .int()
      .min(1)
      .describe('The host and every signed-in user who joined (subscribed, added an item or chatted)'),
    created_at: TimestampSchema,
    expires_at: TimestampSchema.describe(`${SESSION_TTL_HOURS} h after the last change`),
  }),
);
export type QueueSession = z.infer<typeof QueueSessionSchema>;

export const CreateQueueSessionRequestSchema = named(
  'CreateQueueSessionRequest',
  z.object({ title: z.string().trim().min(1).max(200).optional() }),
);
export type CreateQueueSessionRequest = z.infer<typeof CreateQueueSessionRequestSchema>;

export const UpdateQueueSessionRequestSchema = named(
  'UpdateQueueSessionRequest',
  z.object({
    current_index: currentIndex.optional().describe('Must name an item of the session (0 when it is empty)'),
    position_seconds: positionSeconds.optional(),
    is_playing: z.boolean().optional(),
  }),
);
export type UpdateQueueSessionRequest = z.infer<typeof UpdateQueueSessionRequestSchema>;

export const AddQueueSessionItemRequestSchema = named('AddQueueSessionItemRequest', z.object({ track_id: UuidSchema }));

/** A session's share token in a path: unknown, ended or expired is 404 (never 400: nothing is said about a token's shape). */
export const SessionTokenParamsSchema = z.object({
  token: ShareTokenSchema.describe('The session’s share token (base64url)'),
});
export const SessionItemParamsSchema = SessionTokenParamsSchema.extend({ id: UuidSchema });

export const QueueChatMessageSchema = named(
  'QueueChatMessage',
  z.object({
    id: UuidSchema,
    user: formerUser,
    text: z.string().min(1).max(CHAT_TEXT_MAX),
    created_at: TimestampSchema,
  }),
);
export type QueueChatMessage = z.infer<typeof QueueChatMessageSchema>;

/** Your part of the data export: the queue, the sessions you host, the chat messages you wrote. */
export const ExportedQueueSessionSchema = named(
  'ExportedQueueSession',
  z.object({
    id: UuidSchema,
    title: z.string().nullable(),
    track_ids: z.array(UuidSchema),
    created_at: TimestampSchema,
    expires_at: TimestampSchema,
  }),
);
export const ExportedChatMessageSchema = named(
  'ExportedChatMessage',
  z.object({ id: UuidSchema, session_id: UuidSchema, text: z.string(), created_at: TimestampSchema }),
);

export const QueueEnvelope = envelope(named('QueueReply', z.object({ queue: QueueSchema })));
export const QueueItemEnvelope = envelope(named('QueueItemReply', z.object({ item: QueueItemSchema })));
export const QueueSessionEnvelope = envelope(named('QueueSessionReply', z.object({ session: QueueSessionSchema })));
export const QueueSessionItemEnvelope = envelope(
  named('QueueSessionItemReply', z.object({ item: QueueSessionItemSchema })),
);

import { z } from 'zod';
import { TimestampSchema } from '../../common/common.schemas.js';
import { ErrorCodeSchema } from '../../common/envelope.schemas.js';
import { NotificationSchema } from '../notifications/notifications.schemas.js';
import { CHAT_TEXT_MAX, QueueChatMessageSchema, QueueSessionSchema, SessionUserSchema } from './queue.schemas.js';

/**
 * The messages of the live channel of shared sessions (WebSocket /api/v1/ws, docs/live-sessions.md):
 * one JSON object per text frame. The server parses what clients send with LiveClientMessageSchema
 * and builds what it sends as LiveServerMessage, so clients can parse with these same schemas.
 */

/** A session named by the token the client holds; an unknown one is answered NOT_FOUND (its shape is never judged). */
const SessionTokenField = z.string().min(1).max(256).describe('The session’s share token');

export const LiveSubscribeMessageSchema = z.object({ type: z.literal('subscribe'), session_token: SessionTokenField });
export const LiveUnsubscribeMessageSchema = z.object({
  type: z.literal('unsubscribe'),
  session_token: SessionTokenField,
});
export const LiveChatRequestMessageSchema = z.object({
  type: z.literal('chat'),
  session_token: SessionTokenField,
  text: z.string().min(1).max(CHAT_TEXT_MAX).describe(`1 to ${CHAT_TEXT_MAX} characters, not only spaces`),
});

/** What a client sends. */
export const LiveClientMessageSchema = z.discriminatedUnion('type', [
  LiveSubscribeMessageSchema,
  LiveUnsubscribeMessageSchema,
  LiveChatRequestMessageSchema,
]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;

const toSession = <T extends string, D extends z.ZodTypeAny>(type: T, data: D) =>
  z.object({
    type: z.literal(type),
    session_token: SessionTokenField.describe('The token the client subscribed with'),
    data,
  });

/** Who is in a session now: the users with a socket subscribed to it (each once, whatever their number of sockets). */
export const LivePresenceSchema = z.object({
  participants: z.array(SessionUserSchema).describe('Users subscribed now, in the order they arrived'),
  participants_count: QueueSessionSchema.shape.participants_count,
  joined: SessionUserSchema.optional().describe(
    'Present when this user was not subscribed before (their first socket)',
  ),
  left: SessionUserSchema.optional().describe(
    'Present when this user is no longer subscribed (their last socket unsubscribed or closed)',
  ),
});
export type LivePresence = z.infer<typeof LivePresenceSchema>;

export const LivePlaybackSchema = z.object({
  current_index: QueueSessionSchema.shape.current_index,
  position_seconds: QueueSessionSchema.shape.position_seconds,
  is_playing: z.boolean(),
  expires_at: TimestampSchema,
});
export type LivePlayback = z.infer<typeof LivePlaybackSchema>;

export const LIVE_END_REASONS = ['ended', 'expired'] as const;

export const LiveSubscribedMessageSchema = toSession(
  'subscribed',
  z.object({
    session: QueueSessionSchema,
    chat: z.array(QueueChatMessageSchema).describe('The last chat messages, oldest first'),
  }),
);
export const LiveUnsubscribedMessageSchema = toSession('unsubscribed', z.object({}));
export const LiveItemsChangedMessageSchema = toSession('items_changed', z.object({ session: QueueSessionSchema }));
export const LivePlaybackChangedMessageSchema = toSession('playback_changed', LivePlaybackSchema);
export const LiveChatMessageSchema = toSession('chat', z.object({ message: QueueChatMessageSchema }));
export const LivePresenceMessageSchema = toSession('presence', LivePresenceSchema);
export const LiveEndedMessageSchema = toSession('ended', z.object({ reason: z.enum(LIVE_END_REASONS) }));
export const LiveErrorMessageSchema = z.object({
  type: z.literal('error'),
  session_token: SessionTokenField.optional().describe('When the refused message named one'),
  data: z.object({ code: ErrorCodeSchema, message: z.string() }),
});

/**
 * A notification of the signed-in user, as GET /notifications shows it, sent as it is made (to every
 * socket of the user, on every instance); not tied to a session.
 */
export const LiveNotificationMessageSchema = z.object({ type: z.literal('notification'), data: NotificationSchema });

/** What the server sends. */
export const LiveServerMessageSchema = z.discriminatedUnion('type', [
  LiveNotificationMessageSchema,
  LiveSubscribedMessageSchema,
  LiveUnsubscribedMessageSchema,
  LiveItemsChangedMessageSchema,
  LivePlaybackChangedMessageSchema,
  LiveChatMessageSchema,
  LivePresenceMessageSchema,
  LiveEndedMessageSchema,
  LiveErrorMessageSchema,
]);
export type LiveServerMessage = z.infer<typeof LiveServerMessageSchema>;
export type LiveServerMessageType = LiveServerMessage['type'];
/** One kind of server message: `LiveServerMessageOf<'presence'>`. */
export type LiveServerMessageOf<T extends LiveServerMessageType> = Extract<LiveServerMessage, { type: T }>;

/** Close codes of the live socket besides the standard ones (1001 shutdown, 1009 frame too large). */
export const LIVE_CLOSE_CODES = {
  /** The credentials behind the socket were revoked (password changed, signed out, account gone, key revoked). */
  REVOKED: 4401,
} as const;

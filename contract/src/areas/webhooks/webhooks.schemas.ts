import { z } from 'zod';
import { PaginationQuerySchema, TimestampSchema, UuidSchema, pageOf } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

/** The events a webhook may ask for, each sent to the user it concerns. */
export const WEBHOOK_EVENT_TYPES = [
  'track.created',
  'track.updated',
  'track.deleted',
  'track.processed',
  'track.liked',
  'track.reposted',
  'comment.created',
  'user.followed',
  'playlist.created',
  'playlist.updated',
  'playlist.deleted',
  'playlist.track_added',
  'playlist.track_removed',
  'order.created',
  'order.completed',
  'order.refunded',
  'product.sold',
  'user.warned',
  'user.suspended',
  'user.unsuspended',
  'user.banned',
  'user.unbanned',
  'content.moderated',
  'report.closed',
  'copyright.claimed',
  'copyright.countered',
  'copyright.upheld',
  'copyright.rejected',
  'strike.added',
  'strike.lifted',
  'appeal.created',
  'appeal.granted',
  'appeal.denied',
  'group.created',
  'group.member_joined',
  'group.post_created',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const WEBHOOKS_PER_USER_MAX = 20;
export const WEBHOOK_URL_MAX = 2048;
/** Consecutive failed deliveries after which a webhook is disabled. */
export const WEBHOOK_FAILURES_MAX = 20;
/** `whk_` and 32 random base62 characters: authenticates as the owner, read scope only. */
export const WEBHOOK_KEY_PREFIX = 'whk_';
export const WEBHOOK_KEY_RANDOM_LENGTH = 32;
export const WEBHOOK_KEY_SHOWN_LENGTH = 12;
/** How long deliveries carry a signature by the previous secret after a rotation. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** How much of a receiver's answer a delivery keeps. */
export const DELIVERY_EXCERPT_BYTES = 1024;
export const DELIVERIES_KEPT_DAYS = 30;

const EventListSchema = z
  .array(z.enum([...WEBHOOK_EVENT_TYPES, '*']))
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length + 1)
  .describe('Event types, or ["*"] for all of them (a list holding "*" means all)');

const WebhookUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(WEBHOOK_URL_MAX)
  .describe(
    'Absolute https URL without credentials whose host resolves only to public addresses (400 INVALID_WEBHOOK_URL otherwise)',
  );

export const WebhookSchema = named(
  'Webhook',
  z.object({
    id: UuidSchema,
    url: z.string(),
    events: z.array(z.enum([...WEBHOOK_EVENT_TYPES, '*'])),
    description: z.string().nullable(),
    is_active: z.boolean(),
    api_key_prefix: z.string().describe(`The webhook key’s first ${WEBHOOK_KEY_SHOWN_LENGTH} characters`),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    last_delivery_at: TimestampSchema.nullable(),
    consecutive_failures: z.number().int(),
    disabled_reason: z
      .string()
      .nullable()
      .describe(
        `Why the service disabled it (${WEBHOOK_FAILURES_MAX} failed deliveries in a row); cleared when re-activated`,
      ),
  }),
);
export type Webhook = z.infer<typeof WebhookSchema>;

export const CreateWebhookRequestSchema = named(
  'CreateWebhookRequest',
  z.object({
    url: WebhookUrlSchema,
    events: EventListSchema,
    description: z.string().trim().max(500).optional(),
    is_active: z.boolean().optional().describe('Default true'),
  }),
);
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequestSchema>;

export const UpdateWebhookRequestSchema = named(
  'UpdateWebhookRequest',
  z.object({
    url: WebhookUrlSchema.optional(),
    events: EventListSchema.optional(),
    description: z.string().trim().max(500).nullable().optional(),
    is_active: z.boolean().optional().describe('Re-activating clears the failure count and disabled_reason'),
  }),
);
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequestSchema>;

export const CreatedWebhookSchema = named(
  'CreatedWebhook',
  z.object({
    webhook: WebhookSchema,
    api_key: z.string().describe('`whk_` and 32 letters and digits: shown only here (and by its regeneration)'),
    secret: z
      .string()
      .describe(
        '`whsec_` and the base64 of 24 random bytes, for checking signatures: shown only here (and by its rotation)',
      ),
  }),
);

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  z.object({
    id: UuidSchema,
    message_id: z
      .string()
      .describe('The webhook-id header: the same on every attempt of a message, for receivers to deduplicate'),
    event_type: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    response_status: z.number().int().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .describe(`The first ${DELIVERY_EXCERPT_BYTES} bytes of the receiver’s last answer`),
    duration_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    next_attempt_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
    delivered_at: TimestampSchema.nullable(),
  }),
);
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const DeliveriesQuerySchema = PaginationQuerySchema.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  event: z.enum(WEBHOOK_EVENT_TYPES).optional(),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuerySchema>;

export const DeliveryParamsSchema = z.object({ id: UuidSchema, deliveryId: UuidSchema });

export const WebhookStatsSchema = named(
  'WebhookStats',
  z.object({
    webhooks_total: z.number().int(),
    webhooks_active: z.number().int(),
    deliveries: z.object({
      total: z.number().int(),
      succeeded: z.number().int(),
      failed: z.number().int(),
      pending: z.number().int(),
    }),
    success_rate: z.number().min(0).max(1).describe('Succeeded among finished deliveries (0 when none finished)'),
    avg_duration_ms: z.number().describe('Over attempts that got an answer'),
    last_24h: z.object({ succeeded: z.number().int(), failed: z.number().int() }),
    by_event: z.record(z.string(), z.number().int()),
  }),
);

export const WebhookReplySchema = named('WebhookReply', z.object({ webhook: WebhookSchema }));
export const WebhookListSchema = named('WebhookList', z.object({ webhooks: z.array(WebhookSchema) }));
export const WebhookKeySchema = named('WebhookKey', z.object({ api_key: z.string(), message: z.string() }));
export const WebhookSecretSchema = named('WebhookSecret', z.object({ secret: z.string(), message: z.string() }));
export const DeliveryPageSchema = named('WebhookDeliveryPage', pageOf('deliveries', WebhookDeliverySchema));
export const DeliveryReplySchema = named('WebhookDeliveryReply', z.object({ delivery: WebhookDeliverySchema }));
export const WebhookTestSchema = named(
  'WebhookTestReply',
  z.object({ message: z.string(), delivery: WebhookDeliverySchema }),
);
export const WebhookStatsReplySchema = named('WebhookStatsReply', z.object({ stats: WebhookStatsSchema }));

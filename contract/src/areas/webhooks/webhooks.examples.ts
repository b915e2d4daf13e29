/** Examples of the webhooks area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, UPDATED, onePage } from '../../common/common.examples.js';

const WEBHOOK_ID = '6d1b2c3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

const DELIVERY_ID = '7e2c3d4b-5f6a-4b7c-9d8e-0f1a2b3c4d5e';

export const webhook = {
  id: WEBHOOK_ID,
  url: 'https://hooks.example.com/riff',
  events: ['track.created', 'track.processed', 'comment.created'],
  description: 'New uploads into our CMS',
  is_active: true,
  api_key_prefix: 'whk_3fQ9zLk2',
  created_at: CREATED,
  updated_at: UPDATED,
  last_delivery_at: UPDATED,
  consecutive_failures: 0,
  disabled_reason: null,
};

const delivery = {
  id: DELIVERY_ID,
  message_id: 'msg_2b5e8c1f9a4d7b3e6c0f2a8d5b1e4c7a',
  event_type: 'track.created',
  status: 'succeeded',
  attempts: 1,
  response_status: 200,
  response_excerpt: '{"ok":true}',
  duration_ms: 84,
  error: null,
  next_attempt_at: null,
  created_at: UPDATED,
  delivered_at: UPDATED,
};

const webhookStats = {
  webhooks_total: 2,
  webhooks_active: 1,
  deliveries: { total: 120, succeeded: 114, failed: 4, pending: 2 },
  success_rate: 0.9661,
  avg_duration_ms: 92,
  last_24h: { succeeded: 12, failed: 1 },
  by_event: { 'track.created': 40, 'comment.created': 80 },
};

export const WEBHOOKS_EXAMPLES: Record<string, unknown> = {
  Webhook: webhook,
  CreateWebhookRequest: {
    url: 'https://hooks.example.com/riff',
    events: ['track.created', 'comment.created'],
    description: 'New uploads into our CMS',
  },
  UpdateWebhookRequest: { is_active: true },
  CreatedWebhook: {
    webhook,
    api_key: 'whk_3fQ9zLk2Vb8NwR4tY7uP1sD6gH0jK5mX',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
  WebhookReply: { webhook },
  WebhookList: { webhooks: [webhook] },
  WebhookKey: { api_key: 'whk_8Hs2Lq9Vn4Rt7Yw1Zx5Cb3Nm6Pk0Dj2F', message: 'The previous key no longer works' },
  WebhookSecret: {
    secret: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD',
    message: 'Deliveries are signed with both secrets until 2026-11-22T10:00:00.000Z',
  },
  WebhookDelivery: delivery,
  WebhookDeliveryPage: { deliveries: [delivery], pagination: onePage(1) },
  WebhookDeliveryReply: { delivery: { ...delivery, status: 'pending', delivered_at: null, next_attempt_at: UPDATED } },
  WebhookTestReply: {
    message: 'The receiver accepted the test event',
    delivery: { ...delivery, event_type: 'webhook.test' },
  },
  WebhookStats: webhookStats,
  WebhookStatsReply: { stats: webhookStats },
};

import { initContract } from '@ts-rest/core';
import { IdParamsSchema, MessageSchema } from '../../common/common.schemas.js';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { userOnlyRoute, userRoute } from '../../common/route-meta.js';
import {
  CreateWebhookRequestSchema,
  CreatedWebhookSchema,
  DeliveriesQuerySchema,
  DeliveryPageSchema,
  DeliveryParamsSchema,
  DeliveryReplySchema,
  UpdateWebhookRequestSchema,
  WEBHOOK_FAILURES_MAX,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOKS_PER_USER_MAX,
  WebhookKeySchema,
  WebhookListSchema,
  WebhookReplySchema,
  WebhookSecretSchema,
  WebhookStatsReplySchema,
  WebhookTestSchema,
} from './webhooks.schemas.js';

const c = initContract();

const DELIVERY =
  'Deliveries follow Standard Webhooks: POST with headers webhook-id (the same on every attempt), webhook-timestamp (unix seconds), ' +
  'webhook-signature (`v1,<base64 HMAC-SHA256 of id.timestamp.body>` with the secret; space-separated, one per secret during a rotation), ' +
  'content-type application/json and user-agent Riff-Webhooks/1.2.0; body `{type, timestamp, data}`. A 2xx within 10 s is success; ' +
  'anything else (redirects included, never followed) fails and is tried again after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. ' +
  `After ${WEBHOOK_FAILURES_MAX} failed deliveries in a row the webhook is disabled and its owner gets a mail.`;

/** A user's webhooks, their deliveries and statistics. Another user’s webhook is 404: no leak that it exists. */
export const webhooksContract = c.router({
  list: {
    method: 'GET',
    path: '/webhooks',
    summary: 'Your webhooks',
    description: `Newest first (at most ${WEBHOOKS_PER_USER_MAX}).`,
    metadata: userRoute,
    responses: { 200: envelope(WebhookListSchema), ...errors(401, 403) },
  },
  create: {
    method: 'POST',
    path: '/webhooks',
    summary: 'Register a webhook',
    description:
      `The webhook’s key and signing secret are in this reply only (stored hashed and encrypted). At most ${WEBHOOKS_PER_USER_MAX} ` +
      'webhooks per user (400 LIMIT_REACHED). The URL is checked now and again at every delivery: 400 INVALID_WEBHOOK_URL. ' +
      DELIVERY,
    metadata: userOnlyRoute,
    body: CreateWebhookRequestSchema,
    responses: { 201: envelope(CreatedWebhookSchema), ...errors(400, 401, 403, 413, 415) },
  },
  stats: {
    method: 'GET',
    path: '/webhooks/stats',
    summary: 'Delivery statistics',
    description: 'Over all the caller’s webhooks and their deliveries of the last 30 days.',
    metadata: userRoute,
    responses: { 200: envelope(WebhookStatsReplySchema), ...errors(401, 403) },
  },
  get: {
    method: 'GET',
    path: '/webhooks/:id',
    summary: 'A webhook',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    responses: { 200: envelope(WebhookReplySchema), ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/webhooks/:id',
    summary: 'Change a webhook',
    description: 'url, events, description, is_active. Re-activating clears the failure count.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: UpdateWebhookRequestSchema,
    responses: { 200: envelope(WebhookReplySchema), ...errors(400, 401, 403, 404, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/webhooks/:id',
    summary: 'Delete a webhook',
    description: 'Its key stops working and its pending deliveries are dropped.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  regenerateKey: {
    method: 'POST',
    path: '/webhooks/:id/regenerate-key',
    summary: 'A new webhook key',
    description: 'The old key fails at once (401).',
    metadata: userOnlyRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(WebhookKeySchema), ...errors(400, 401, 403, 404) },
  },
  rotateSecret: {
    method: 'POST',
    path: '/webhooks/:id/rotate-secret',
    summary: 'A new signing secret',
    description: `For ${WEBHOOK_SECRET_OVERLAP_HOURS} h deliveries carry signatures by both the new and the previous secret.`,
    metadata: userOnlyRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(WebhookSecretSchema), ...errors(400, 401, 403, 404) },
  },
  deliveries: {
    method: 'GET',
    path: '/webhooks/:id/deliveries',
    summary: 'Deliveries of a webhook',
    description: 'Newest first; kept 30 days.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    query: DeliveriesQuerySchema,
    responses: { 200: envelope(DeliveryPageSchema), ...errors(400, 401, 403, 404) },
  },
  redeliver: {
    method: 'POST',
    path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
    summary: 'Send a delivery again',
    description:
      'A new attempt of the same message (same webhook-id), queued now; a delivery still pending is sent as it is.',
    metadata: userRoute,
    pathParams: DeliveryParamsSchema,
    body: c.noBody(),
    responses: { 202: envelope(DeliveryReplySchema), ...errors(400, 401, 403, 404) },
  },
  test: {
    method: 'POST',
    path: '/webhooks/:id/test',
    summary: 'Send a test event',
    description:
      'Sends webhook.test now, one attempt, and answers 200 whether the receiver accepted it or not (delivery says). An inactive webhook is 400 WEBHOOK_INACTIVE.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(WebhookTestSchema), ...errors(400, 401, 403, 404) },
  },
});

import type { Webhook, WebhookDelivery } from '@riff/contract';
import type { DeliveryRow, WebhookRow } from './webhooks.repository.js';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toWebhookDto(row: WebhookRow): Webhook {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    is_active: row.is_active,
    api_key_prefix: row.api_key_prefix,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_delivery_at: iso(row.last_delivery_at),
    consecutive_failures: row.consecutive_failures,
    disabled_reason: row.disabled_reason,
  };
}

export function toDeliveryDto(row: DeliveryRow): WebhookDelivery {
  return {
    id: row.id,
    message_id: row.message_id,
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    response_status: row.response_status,
    response_excerpt: row.response_excerpt,
    duration_ms: row.duration_ms,
    error: row.error,
    next_attempt_at: iso(row.next_attempt_at),
    created_at: row.created_at.toISOString(),
    delivered_at: iso(row.delivered_at),
  };
}

import type { DeliveryStatus, WebhookEventType } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface WebhooksTable {
  id: Generated<string>;
  user_id: string;
  url: string;
  /** Event types, or ['*']. */
  events: (WebhookEventType | '*')[];
  description: string | null;
  is_active: Generated<boolean>;
  /** SHA-256 (hex) of the whole `whk_` key; its first 12 characters are shown. */
  api_key_hash: string;
  api_key_prefix: string;
  /** The signing secret (`whsec_…`), sealed with the secret box. */
  secret_sealed: string;
  /** The secret before the last rotation, still signing until previous_secret_expires_at. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Timestamp | null;
  consecutive_failures: Generated<number>;
  disabled_reason: string | null;
  last_delivery_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  webhook_id: string;
  /** The webhook-id header: the same on every attempt. */
  message_id: string;
  event_type: WebhookEventType;
  /** The exact body sent (signed as it is). */
  payload: string;
  status: Generated<DeliveryStatus>;
  attempts: Generated<number>;
  response_status: number | null;
  response_excerpt: string | null;
  duration_ms: number | null;
  error: string | null;
  next_attempt_at: Timestamp | null;
  /** While an attempt is being sent: no other job makes one before this (migration 0018). */
  attempting_until: Timestamp | null;
  created_at: CreatedAt;
  delivered_at: Timestamp | null;
}

/** The webhooks area's tables: outgoing webhooks and their deliveries. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    webhooks: WebhooksTable;
    webhook_deliveries: WebhookDeliveriesTable;
  }
}

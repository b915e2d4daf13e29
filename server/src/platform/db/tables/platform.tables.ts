import type { Generated } from 'kysely';
import type { CreatedAt, Json } from './column-types.js';

export interface StorageIntentsTable {
  key: string;
  created_at: CreatedAt;
}

export interface DomainEventsTable {
  id: Generated<string>;
  type: string;
  payload: Json<Record<string, unknown>>;
  subject_type: string;
  subject_id: string | null;
  user_id: string | null;
  actor_id: string | null;
  request_id: string | null;
  created_at: Generated<Date>;
}

/** Tables of the platform itself: storage intents (objects being written) and the domain-event outbox. */
export interface PlatformTables {
  storage_intents: StorageIntentsTable;
  domain_events: DomainEventsTable;
}

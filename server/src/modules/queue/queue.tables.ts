import type { QueueRepeatMode } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

/** A user's play queue: its playback state and version (its items are queue_items). */
export interface QueuesTable {
  user_id: string;
  current_index: Generated<number>;
  position_seconds: Generated<number>;
  shuffle: Generated<boolean>;
  repeat: Generated<QueueRepeatMode>;
  version: Generated<number>;
  updated_at: UpdatedAt;
}

export interface QueueItemsTable {
  id: string;
  user_id: string;
  track_id: string;
  position: number;
  added_at: CreatedAt;
}

/** A shared listening session; its token is kept only as its sha256. */
export interface QueueSessionsTable {
  id: string;
  token_hash: string;
  host_id: string;
  title: string | null;
  current_index: Generated<number>;
  position_seconds: Generated<number>;
  is_playing: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  expires_at: Timestamp;
}

export interface QueueSessionItemsTable {
  id: string;
  session_id: string;
  track_id: string;
  added_by: string | null;
  position: number;
  added_at: CreatedAt;
}

export interface QueueSessionParticipantsTable {
  session_id: string;
  user_id: string;
  joined_at: CreatedAt;
}

export interface QueueSessionMessagesTable {
  id: string;
  session_id: string;
  user_id: string | null;
  text: string;
  created_at: CreatedAt;
}

/** The queue area's tables: the play queue and shared sessions. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    queues: QueuesTable;
    queue_items: QueueItemsTable;
    queue_sessions: QueueSessionsTable;
    queue_session_items: QueueSessionItemsTable;
    queue_session_participants: QueueSessionParticipantsTable;
    queue_session_messages: QueueSessionMessagesTable;
  }
}

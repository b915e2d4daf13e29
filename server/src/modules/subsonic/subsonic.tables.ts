import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

export interface AppPasswordsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** The password sealed with the `app-password` key (SecretBox): token sign-in needs it back. */
  password_sealed: string;
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
}

/** The Subsonic app that last saved a user's play queue, and the queue's version it left (getPlayQueue's changedBy). */
export interface SubsonicQueueClientsTable {
  user_id: string;
  client: string;
  queue_version: number;
  saved_at: Timestamp;
}

/** The subsonic area's tables: app passwords, and who saved the play queue last. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    app_passwords: AppPasswordsTable;
    subsonic_queue_clients: SubsonicQueueClientsTable;
  }
}

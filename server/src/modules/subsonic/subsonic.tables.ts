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

/** The subsonic area's table: app passwords. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    app_passwords: AppPasswordsTable;
  }
}

import type { ApiKeyScope } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

export interface ApiKeysTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  /** The key's first 12 characters, shown in lists. */
  prefix: string;
  /** SHA-256 (hex) of the whole key. */
  key_hash: string;
  scopes: ApiKeyScope[];
  created_at: CreatedAt;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
}

/** The developer area's table: API keys. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    api_keys: ApiKeysTable;
  }
}

import type { Generated } from 'kysely';
import type { ApiKeyScope } from '@riff/contract';
import type { CreatedAt, Timestamp } from './column-types.js';

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

/** Developer API keys. */
export interface DeveloperTables {
  api_keys: ApiKeysTable;
}

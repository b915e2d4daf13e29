import type { UserRow } from '../db/database.schema.js';

/** Who is calling: set by the authentication middleware from the route's metadata. */
export interface Principal {
  user: UserRow;
  via: 'bearer' | 'stream_token' | 'api_key';
  /** API-key scopes when via is api_key. */
  scopes?: readonly string[];
}

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

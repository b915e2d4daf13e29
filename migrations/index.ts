import type { Migration } from 'kysely';
import * as accounts from './0001-accounts.js';

/** Every migration, in order. The same set runs on PGlite and PostgreSQL. */
export const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
};

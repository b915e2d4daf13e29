import type { ColumnType } from 'kysely';

/** One random salt per UTC day (daily-salt.ts); the day as YYYY-MM-DD, as `date` columns are read. */
export interface DailySaltsTable {
  day: ColumnType<string, string, never>;
  salt: ColumnType<Uint8Array, Buffer, never>;
}

declare module '../db/database.schema.js' {
  interface Database {
    daily_salts: DailySaltsTable;
  }
}

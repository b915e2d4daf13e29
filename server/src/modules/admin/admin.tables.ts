import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Json, UpdatedAt } from '../../platform/db/column-types.js';

/**
 * The staff log: one row per staff action (sanction, role change, setting, content action,
 * decision), append-only. `actor_id` has no foreign key: erasing a staff member replaces it with a
 * pseudonymous id and keeps the row.
 */
export interface StaffLogTable {
  id: Generated<string>;
  actor_id: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  reason: string | null;
  before: Json<unknown> | null;
  after: Json<unknown> | null;
  request_id: string | null;
  created_at: CreatedAt;
}

/** The platform's settings, one row (id true), the fields of the contract's PlatformSettings. */
export interface PlatformSettingsTable {
  id: Generated<boolean>;
  settings: Json<Record<string, unknown>>;
  updated_at: UpdatedAt;
  updated_by: string | null;
}

export type StaffLogRow = Selectable<StaffLogTable>;

/** The admin area's tables. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    staff_log: StaffLogTable;
    platform_settings: PlatformSettingsTable;
  }
}

import type { AdminUser, AdminUserSanction, StaffLogEntry } from '@riff/contract';
import { accountStatus } from '../users/staff-accounts.js';
import type { UserRow } from '../users/users.tables.js';
import type { StaffLogRow } from './admin.tables.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** What the moderation area says of an account: open reports against it, strikes, sanctions. */
export interface AccountStanding {
  open_reports: number;
  active_strikes: number;
  sanctions: AdminUserSanction[];
}

export const NO_STANDING: AccountStanding = { open_reports: 0, active_strikes: 0, sanctions: [] };

/** An account as staff see it; `defaultQuota` is the platform's quota for an account without its own. */
export function toAdminUser(row: UserRow, standing: AccountStanding, defaultQuota: number): AdminUser {
  const own = row.quota_bytes === null ? null : Number(row.quota_bytes);
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    slug: row.slug,
    role: row.role,
    is_admin: row.is_admin,
    is_active: row.is_active,
    is_banned: row.is_banned,
    is_verified: row.is_verified,
    is_public: row.is_public,
    status: accountStatus(row),
    email_verified_at: iso(row.email_verified_at),
    last_login_at: iso(row.last_login_at),
    login_count: row.login_count,
    two_factor_enabled: row.two_factor_enabled,
    suspended_at: iso(row.suspended_at),
    suspended_until: iso(row.suspended_until),
    quota_bytes: own,
    effective_quota_bytes: own ?? defaultQuota,
    open_reports: standing.open_reports,
    active_strikes: standing.active_strikes,
    sanctions: standing.sanctions,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted_at: iso(row.deleted_at),
  };
}

const asRecord = (value: unknown): Record<string, unknown> | null =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : value === null || value === undefined
      ? null
      : { value };

export function toStaffLogEntry(row: StaffLogRow): StaffLogEntry {
  return {
    id: row.id,
    actor_id: row.actor_id,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    reason: row.reason,
    before: asRecord(row.before),
    after: asRecord(row.after),
    request_id: row.request_id,
    created_at: row.created_at.toISOString(),
  };
}

import './users.events.js';
import type { UserRole } from '@riff/contract';
import { systemActor, type Actor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { AccountFigures, StaffAccountFilter, StaffAccountsRepository } from './staff-accounts.repository.js';
import type { UserRow } from './users.tables.js';

export { accountStatus } from './staff-accounts.repository.js';
export type { AccountFigures, StaffAccountFilter } from './staff-accounts.repository.js';

/**
 * What the admin area may read and change of accounts: every account as staff see it, its role,
 * verification and quota, and the figures of the accounts. Only the users area reads and writes
 * the users table; the admin area decides who may do what and logs it.
 */
export interface StaffAccounts {
  list(filter: StaffAccountFilter): Promise<{ rows: UserRow[]; total: number }>;
  /** Any account, deleted ones included. */
  find(id: string): Promise<UserRow | undefined>;
  /** The live admins' ids, their rows locked until the transaction ends. */
  lockAdmins(): Promise<string[]>;
  /** role, with is_admin in step (true for admin only). */
  setRole(actor: Actor, id: string, role: UserRole): Promise<UserRow | undefined>;
  /** Verified now (an address of ADMIN_EMAILS becomes admin with it). */
  markVerified(actor: Actor, id: string): Promise<UserRow | undefined>;
  /** The account's own quota; null for the platform's default. */
  setQuota(actor: Actor, id: string, bytes: number | null): Promise<UserRow | undefined>;
  /** The account's own quota, or null when it has none (the default applies). */
  quotaOf(id: string): Promise<number | null>;
  figures(since: Date, now: Date): Promise<AccountFigures>;
}

/**
 * ADMIN_EMAILS: a verified account with one of these addresses becomes admin (role and is_admin),
 * when it is verified and at each start. Nobody is demoted when an address leaves the list.
 */
export class ListedAdmins {
  constructor(
    private readonly deps: {
      scope: DbScope;
      events: EventBus;
      staff: StaffAccountsRepository;
      emails: readonly string[];
    },
  ) {}

  /** Promotes the listed verified accounts (only `userId`, when given); answers who was promoted. */
  async promote(userId?: string): Promise<string[]> {
    const { scope, events, staff, emails } = this.deps;
    if (emails.length === 0) return [];
    return scope.transaction(async () => {
      const promoted: string[] = [];
      for (const row of await staff.verifiedNonAdminsWithEmails(emails)) {
        if (userId !== undefined && row.id !== userId) continue;
        await staff.setRole(row.id, 'admin');
        await events.record(systemActor(), 'user.admin_granted', {
          subject: { resource: 'user', id: row.id },
          data: { by: 'admin_emails' },
          userId: row.id,
        });
        promoted.push(row.id);
      }
      return promoted;
    });
  }
}

export function createStaffAccounts(deps: {
  scope: DbScope;
  events: EventBus;
  clock: Clock;
  staff: StaffAccountsRepository;
  listed: ListedAdmins;
}): StaffAccounts {
  const { scope, events, clock, staff, listed } = deps;
  const changed = (actor: Actor, id: string, fields: string[]) =>
    events.record(actor, 'user.updated', { subject: { resource: 'user', id }, data: { fields }, userId: id });
  return {
    list: (filter) => staff.list(filter),
    find: (id) => staff.find(id),
    lockAdmins: () => staff.lockAdmins(),
    quotaOf: (id) => staff.quotaOf(id),
    figures: (since, now) => staff.figures(since, now),
    setRole: (actor, id, role) =>
      scope.transaction(async () => {
        const row = await staff.setRole(id, role);
        if (row) await changed(actor, id, ['role', 'is_admin']);
        return row;
      }),
    markVerified: (actor, id) =>
      scope.transaction(async () => {
        const row = await staff.markVerified(id, clock.now());
        if (!row) return undefined;
        await changed(actor, id, ['is_verified', 'email_verified_at']);
        return (await listed.promote(id)).length > 0 ? staff.find(id) : row;
      }),
    setQuota: (actor, id, bytes) =>
      scope.transaction(async () => {
        const row = await staff.setQuota(id, bytes);
        if (row) await changed(actor, id, ['quota_bytes']);
        return row;
      }),
  };
}

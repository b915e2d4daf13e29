import type { Revocations } from '../../platform/auth/revocations.js';
import type { Clock } from '../../platform/clock.js';
import type { UsersRepository } from './users.repository.js';

/** What a sanction reads of an account and changes: its rank (whom a moderator may not touch) and its state. */
export interface AccountState {
  id: string;
  username: string;
  is_admin: boolean;
  role: string;
  is_banned: boolean;
  suspended_at: Date | null;
  /** Null with suspended_at for a suspension only an admin lifts. */
  suspended_until: Date | null;
}

/**
 * The users area's side of sanctions: the account's suspension and ban columns, changed in the
 * caller's transaction. Suspending and banning sign the account out everywhere at once: every
 * access token dies (token_version), open connections are told once the change commits (the
 * refresh tokens are auth's, which ends them on the sanction's event).
 */
export interface AccountStanding {
  /** A live (not deleted) account, locked until the transaction ends; undefined when there is none. */
  lock(userId: string): Promise<AccountState | undefined>;
  suspend(userId: string, until: Date | null): Promise<AccountState>;
  unsuspend(userId: string): Promise<AccountState>;
  ban(userId: string): Promise<AccountState>;
  unban(userId: string): Promise<AccountState>;
  /** Clears a suspension whose end has passed; true when there was one. */
  endSuspensionIfOver(userId: string): Promise<boolean>;
}

const stateOf = (row: AccountState): AccountState => ({
  id: row.id,
  username: row.username,
  is_admin: row.is_admin,
  role: row.role,
  is_banned: row.is_banned,
  suspended_at: row.suspended_at,
  suspended_until: row.suspended_until,
});

export function createAccountStanding(deps: {
  users: UsersRepository;
  clock: Clock;
  revocations: Revocations;
}): AccountStanding {
  const { users, clock, revocations } = deps;
  const changed = async (userId: string) => {
    const row = await users.findById(userId);
    if (!row) throw new Error(`account ${userId} vanished in the middle of a sanction`);
    return stateOf(row);
  };
  return {
    async lock(userId) {
      const row = await users.findForUpdate(userId);
      return row && stateOf(row);
    },
    async suspend(userId, until) {
      await users.bumpTokenVersion(userId, { suspended_at: clock.now(), suspended_until: until });
      revocations.revoke({ userId, reason: 'suspended' });
      return changed(userId);
    },
    async unsuspend(userId) {
      await users.update(userId, { suspended_at: null, suspended_until: null });
      return changed(userId);
    },
    async ban(userId) {
      await users.bumpTokenVersion(userId, { is_banned: true });
      revocations.revoke({ userId, reason: 'banned' });
      return changed(userId);
    },
    async unban(userId) {
      await users.update(userId, { is_banned: false });
      return changed(userId);
    },
    endSuspensionIfOver: (userId) => users.clearEndedSuspension(userId, clock.now()),
  };
}

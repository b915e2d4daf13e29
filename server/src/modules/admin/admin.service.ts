import './admin.events.js';
import { randomUUID } from 'node:crypto';
import type {
  SendAnnouncementRequest,
  AdminStats,
  AdminUserListQuery,
  SetUserQuotaRequest,
  SetUserRoleRequest,
  StaffLogQuery,
  AdminStatsPeriod,
  UpdatePlatformSettingsRequest,
  UserRole,
} from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { badRequest, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { pageWindow, paginate } from '../../platform/http/pagination.js';
import type { AccountFigures, StaffAccounts } from '../users/staff-accounts.js';
import type { UserRow } from '../users/users.tables.js';
import { NO_STANDING, toAdminUser, toStaffLogEntry, type AccountStanding } from './admin.mapper.js';
import { canAdminister, canReadAccounts } from './admin.policy.js';
import type { StaffLogQueries } from './admin.repository.js';
import type { PlatformSettingsStore, SettingsValues, StoredSettings } from './platform-settings.js';
import type { StaffLog, StaffLogRepository } from './staff-log.js';

/** What the moderation area tells about accounts (open reports against them, strikes, sanctions). */
export interface StandingReader {
  /** Each account's standing; an account without reports, strikes or sanctions may be missing. */
  standing(userIds: readonly string[]): Promise<Map<string, AccountStanding>>;
  /** Accounts with open reports against them, most reported first, at most `limit`. */
  mostReported(limit: number): Promise<string[]>;
}

/** The figures of GET /admin/stats, each from the area that owns its table. */
export interface PlatformFigures {
  accounts(since: Date, now: Date): Promise<AccountFigures>;
  content(since: Date): Promise<AdminStats['content']>;
  plays(since: Date): Promise<number>;
  marketplace(since: Date): Promise<AdminStats['marketplace']>;
  moderation(since: Date): Promise<AdminStats['moderation']>;
}

export interface AdminServiceDeps {
  scope: DbScope;
  events: EventBus;
  clock: Clock;
  settings: PlatformSettingsStore;
  staffLog: StaffLog & Pick<StaffLogRepository, 'pseudonymise'>;
  staffLogQueries: StaffLogQueries;
  /** The users area's accounts, as staff read and change them. */
  accounts: StaffAccounts;
  /** The auth area: signs an account out everywhere. */
  sessions: { revokeAllSessions(userId: string): Promise<void> };
  standing: StandingReader;
  figures: PlatformFigures;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIOD_DAYS: Record<AdminStatsPeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };
/** sort=reports ranks at most this many accounts by their reports; the rest follow, newest first. */
const REPORT_RANKING_MAX = 1000;

const settingsDto = (stored: StoredSettings) => ({
  ...stored.values,
  updated_at: stored.updated_at ? stored.updated_at.toISOString() : null,
  updated_by: stored.updated_by,
});

const roleFields = (row: UserRow) => ({ role: row.role, is_admin: row.is_admin });

/** Administration: the platform's settings, accounts as staff see and manage them, figures, the staff log. */
export class AdminService {
  constructor(private readonly deps: AdminServiceDeps) {}

  private admin(actor: UserActor): void {
    if (!canAdminister(actor)) throw forbidden('Only an admin may do this');
  }

  async getSettings(actor: UserActor) {
    this.admin(actor);
    return { settings: settingsDto(await this.deps.settings.read()) };
  }

  async updateSettings(actor: UserActor, body: UpdatePlatformSettingsRequest) {
    this.admin(actor);
    const { scope, settings, staffLog, events } = this.deps;
    return scope.transaction(async () => {
      const patch = body.announcement === '' ? { ...body, announcement: null } : body;
      const { before, after } = await settings.update(patch, actor.id);
      const fields: string[] = (Object.keys(after.values) as (keyof SettingsValues)[]).filter(
        (key) => before[key] !== after.values[key],
      );
      await staffLog.record(actor, {
        action: 'settings.update',
        target_type: 'settings',
        before,
        after: after.values,
      });
      await events.record(actor, 'admin.settings_updated', {
        subject: { resource: 'settings', id: null },
        data: { fields },
      });
      return { settings: settingsDto(after) };
    });
  }

  async announcement() {
    return { announcement: (await this.deps.settings.current()).announcement };
  }

  /** Accounts as staff read them, with their standing, in one read each. */
  private async records(rows: UserRow[]) {
    const [standing, settings] = await Promise.all([
      this.deps.standing.standing(rows.map((row) => row.id)),
      this.deps.settings.current(),
    ]);
    return rows.map((row) => toAdminUser(row, standing.get(row.id) ?? NO_STANDING, settings.default_quota_bytes));
  }

  private async record(row: UserRow) {
    return (await this.records([row]))[0]!;
  }

  async listUsers(actor: UserActor, query: AdminUserListQuery) {
    if (!canReadAccounts(actor)) throw forbidden('Only staff may list accounts');
    const window = pageWindow(query.page, query.limit);
    const ranking = query.sort === 'reports' ? await this.deps.standing.mostReported(REPORT_RANKING_MAX) : undefined;
    const { rows, total } = await this.deps.accounts.list({
      q: query.q,
      role: query.role,
      status: query.status,
      sort: query.sort,
      order: query.order,
      limit: window.limit,
      offset: window.offset,
      ...(ranking ? { ranking } : {}),
    });
    return { users: await this.records(rows), pagination: paginate(window, total) };
  }

  async getUser(actor: UserActor, id: string) {
    if (!canReadAccounts(actor)) throw forbidden('Only staff may read accounts');
    const row = await this.deps.accounts.find(id);
    if (!row) throw notFound('User');
    return { user: await this.record(row) };
  }

  /** A live account to change; a deleted one is gone for these changes. */
  private async changeable(id: string): Promise<UserRow> {
    const row = await this.deps.accounts.find(id);
    if (!row || row.deleted_at) throw notFound('User');
    return row;
  }

  async setRole(actor: UserActor, id: string, { role }: SetUserRoleRequest) {
    this.admin(actor);
    if (id === actor.id) throw badRequest('You cannot change your own role');
    const { scope, accounts, staffLog } = this.deps;
    const row = await scope.transaction(async () => {
      const before = await this.changeable(id);
      const isAdmin = before.is_admin || before.role === 'admin';
      if (isAdmin && role !== 'admin') {
        const admins = await accounts.lockAdmins();
        if (admins.filter((adminId) => adminId !== id).length === 0)
          throw badRequest('The last admin cannot be demoted');
      }
      if (before.role === role && before.is_admin === (role === 'admin')) return before;
      const after = await accounts.setRole(actor, id, role as UserRole);
      if (!after) throw notFound('User');
      await staffLog.record(actor, {
        action: 'user.role',
        target_type: 'user',
        target_id: id,
        before: roleFields(before),
        after: roleFields(after),
      });
      return after;
    });
    return { user: await this.record(row) };
  }

  async verifyEmail(actor: UserActor, id: string) {
    this.admin(actor);
    const { scope, accounts, staffLog } = this.deps;
    const fields = (row: UserRow) => ({
      is_verified: row.is_verified,
      email_verified_at: row.email_verified_at?.toISOString() ?? null,
      ...roleFields(row),
    });
    const row = await scope.transaction(async () => {
      const before = await this.changeable(id);
      const after = await accounts.markVerified(actor, id);
      if (!after) throw notFound('User');
      await staffLog.record(actor, {
        action: 'user.verify_email',
        target_type: 'user',
        target_id: id,
        before: fields(before),
        after: fields(after),
      });
      return after;
    });
    return { user: await this.record(row) };
  }

  async setQuota(actor: UserActor, id: string, { limit_bytes }: SetUserQuotaRequest) {
    this.admin(actor);
    const { scope, accounts, staffLog } = this.deps;
    const quota = (row: UserRow) => ({ quota_bytes: row.quota_bytes === null ? null : Number(row.quota_bytes) });
    const row = await scope.transaction(async () => {
      const before = await this.changeable(id);
      const after = await accounts.setQuota(actor, id, limit_bytes);
      if (!after) throw notFound('User');
      await staffLog.record(actor, {
        action: 'user.quota',
        target_type: 'user',
        target_id: id,
        before: quota(before),
        after: quota(after),
      });
      return after;
    });
    return { user: await this.record(row) };
  }

  async revokeSessions(actor: UserActor, id: string) {
    this.admin(actor);
    const { scope, sessions, staffLog, events } = this.deps;
    await scope.transaction(async () => {
      const before = await this.changeable(id);
      await sessions.revokeAllSessions(id);
      await staffLog.record(actor, {
        action: 'user.revoke_sessions',
        target_type: 'user',
        target_id: id,
        before: { token_version: before.token_version },
        after: { token_version: before.token_version + 1 },
      });
      await events.record(actor, 'admin.sessions_revoked', {
        subject: { resource: 'user', id },
        data: {},
        userId: id,
      });
    });
    return { message: 'Every session of the account is signed out' };
  }

  /**
   * Queues an announcement: its event, once committed, starts the notifications area's batched
   * delivery to the audience (a job), so the request returns at once whatever the number of users.
   */
  async announce(actor: UserActor, body: SendAnnouncementRequest) {
    this.admin(actor);
    const { scope, staffLog, events, clock } = this.deps;
    const id = randomUUID();
    const queuedAt = clock.now();
    await scope.transaction(async () => {
      await staffLog.record(actor, {
        action: 'announcement.send',
        target_type: 'announcement',
        target_id: id,
        after: { message: body.message, audience: body.audience },
      });
      await events.record(actor, 'admin.announcement_sent', {
        subject: { resource: 'announcement', id },
        data: { message: body.message, audience: body.audience },
      });
    });
    return { id, message: body.message, audience: body.audience, queued_at: queuedAt.toISOString() };
  }

  async stats(actor: UserActor, period: AdminStatsPeriod): Promise<AdminStats> {
    this.admin(actor);
    const { figures, clock } = this.deps;
    const now = clock.now();
    const since = new Date(now.getTime() - PERIOD_DAYS[period] * DAY_MS);
    const [users, content, plays, marketplace, moderation] = await Promise.all([
      figures.accounts(since, now),
      figures.content(since),
      figures.plays(since),
      figures.marketplace(since),
      figures.moderation(since),
    ]);
    return { period, users, content, plays, marketplace, moderation };
  }

  async audit(actor: UserActor, query: StaffLogQuery) {
    this.admin(actor);
    const { page, limit, ...filter } = query;
    const window = pageWindow(page, limit);
    const { rows, total } = await this.deps.staffLogQueries.page(filter, window);
    return { entries: rows.map(toStaffLogEntry), pagination: paginate(window, total) };
  }

  /** An erased staff member's log entries stay under a pseudonym no account has; the settings forget them. */
  async eraseFor(owner: UserActor): Promise<{ pseudonymised_staff_log_entries: number }> {
    const entries = await this.deps.staffLog.pseudonymise(owner.id, randomUUID());
    await this.deps.settings.forget(owner.id);
    return { pseudonymised_staff_log_entries: entries };
  }
}

import type { AccountStatus, AdminUserSortField, SortOrder, UserRole } from '@riff/contract';
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../platform/db/database.schema.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { UserRow } from './users.tables.js';

type UsersEb = ExpressionBuilder<Database, 'users'>;

export interface StaffAccountFilter {
  q?: string | undefined;
  role?: UserRole | undefined;
  status?: AccountStatus | undefined;
  sort: AdminUserSortField;
  order: SortOrder;
  limit: number;
  offset: number;
  /** For sort=reports: the most reported accounts, most first (the moderation area's ranking). */
  ranking?: readonly string[];
}

/** The figures of GET /admin/stats that the accounts give. */
export interface AccountFigures {
  total: number;
  new: number;
  active_daily: number;
  active_weekly: number;
  active_monthly: number;
  suspended: number;
  banned: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Each status as a condition; deleted wins over banned, banned over suspended, suspended over unverified. */
export function statusCondition(eb: UsersEb, status: AccountStatus): Expression<SqlBool> {
  const live = eb('deleted_at', 'is', null);
  const notBanned = eb('is_banned', '=', false);
  const notSuspended = eb('suspended_at', 'is', null);
  switch (status) {
    case 'deleted':
      return eb('deleted_at', 'is not', null);
    case 'banned':
      return eb.and([live, eb('is_banned', '=', true)]);
    case 'suspended':
      return eb.and([live, notBanned, eb('suspended_at', 'is not', null)]);
    case 'unverified':
      return eb.and([live, notBanned, notSuspended, eb('is_verified', '=', false)]);
    case 'active':
      return eb.and([live, notBanned, notSuspended, eb('is_verified', '=', true)]);
  }
}

/** The status of one account, as statusCondition sorts them. */
export function accountStatus(
  row: Pick<UserRow, 'deleted_at' | 'is_banned' | 'suspended_at' | 'is_verified'>,
): AccountStatus {
  if (row.deleted_at) return 'deleted';
  if (row.is_banned) return 'banned';
  if (row.suspended_at) return 'suspended';
  return row.is_verified ? 'active' : 'unverified';
}

/** The accounts as staff read and manage them: every account, deleted ones included. */
export class StaffAccountsRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  async list(filter: StaffAccountFilter): Promise<{ rows: UserRow[]; total: number }> {
    const conditions = (eb: UsersEb) => {
      const all: Expression<SqlBool>[] = [];
      if (filter.q) {
        const pattern = `%${escapeLike(filter.q)}%`;
        all.push(eb.or([eb('username', 'ilike', pattern), eb('email', 'ilike', pattern)]));
      }
      if (filter.role) all.push(eb('role', '=', filter.role));
      if (filter.status) all.push(statusCondition(eb, filter.status));
      return eb.and(all);
    };
    const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
    let query = this.db.selectFrom('users').selectAll().select(totalCount()).where(conditions);
    if (filter.sort === 'reports') {
      // accounts ranked by the moderation area first (most reported first), then the others, newest first
      const ranking = [...(filter.ranking ?? [])];
      const rank =
        ranking.length === 0
          ? sql`null::int`
          : sql`array_position(array[${sql.join(ranking.map((id) => sql`${id}::uuid`))}], id)`;
      query = query.orderBy(filter.order === 'asc' ? sql`${rank} desc nulls first` : sql`${rank} asc nulls last`);
      query = query.orderBy('created_at', 'desc');
    } else if (filter.sort === 'last_login_at') {
      query = query.orderBy(sql`last_login_at ${direction} nulls last`);
    } else {
      query = query.orderBy(sql`${sql.ref(filter.sort)} ${direction}`);
    }
    const rows = await query.orderBy('id').limit(filter.limit).offset(filter.offset).execute();
    return pageWithTotal(rows, async () => {
      const counted = await this.db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where(conditions)
        .executeTakeFirstOrThrow();
      return Number(counted.n);
    });
  }

  /** Any account by id, deleted or not. */
  find(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Locks the live admins' rows until the transaction ends (two admins demoting each other run one after the other); answers their ids. */
  async lockAdmins(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('is_admin', '=', true)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    return rows.map((row) => row.id);
  }

  /** The role, and is_admin with it: an admin's is_admin is true, anyone else's false. */
  setRole(id: string, role: UserRole): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ role, is_admin: role === 'admin', updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  markVerified(id: string, at: Date): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set((eb) => ({
        is_verified: true,
        email_verified_at: eb.fn.coalesce('email_verified_at', sql<Date>`${at}::timestamptz`),
        updated_at: at,
      }))
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  setQuota(id: string, bytes: number | null): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ quota_bytes: bytes === null ? null : String(bytes), updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async quotaOf(id: string): Promise<number | null> {
    const row = await this.db.selectFrom('users').select('quota_bytes').where('id', '=', id).executeTakeFirst();
    return row?.quota_bytes === null || row?.quota_bytes === undefined ? null : Number(row.quota_bytes);
  }

  /** Verified live accounts whose email is one of these (lower-cased), that are not admins yet. */
  async verifiedNonAdminsWithEmails(emails: readonly string[]): Promise<UserRow[]> {
    if (emails.length === 0) return [];
    return this.db
      .selectFrom('users')
      .selectAll()
      .where(sql<string>`lower(email::text)`, 'in', [...emails])
      .where('is_verified', '=', true)
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('is_admin', '=', false), eb('role', '!=', 'admin')]))
      .execute();
  }

  async figures(since: Date, now: Date): Promise<AccountFigures> {
    const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const row = await this.db
      .selectFrom('users')
      .select((eb) => {
        const live = sql<SqlBool>`deleted_at is null`;
        const count = (condition: Expression<SqlBool>) =>
          eb.fn.count<string>(sql`1`).filterWhere(eb.and([live, condition]));
        return [
          count(sql<SqlBool>`true`).as('total'),
          count(eb('created_at', '>=', since)).as('new'),
          count(eb('last_login_at', '>=', ago(1))).as('active_daily'),
          count(eb('last_login_at', '>=', ago(7))).as('active_weekly'),
          count(eb('last_login_at', '>=', ago(30))).as('active_monthly'),
          count(statusCondition(eb, 'suspended')).as('suspended'),
          count(eb('is_banned', '=', true)).as('banned'),
        ];
      })
      .executeTakeFirstOrThrow();
    return {
      total: Number(row.total),
      new: Number(row.new),
      active_daily: Number(row.active_daily),
      active_weekly: Number(row.active_weekly),
      active_monthly: Number(row.active_monthly),
      suspended: Number(row.suspended),
      banned: Number(row.banned),
    };
  }
}

import { notBlockedSql } from './people-sql.js';
import type { UserRole } from '@riff/contract';
import { sql } from 'kysely';
import type { DbScope } from '../../platform/db/transactions.js';
import type { AccountContact, PersonName } from './people-reader.js';
import type { NewUser, UserRow, UserUpdate } from './users.tables.js';

export class UsersRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  findManyById(ids: string[]): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().where('id', 'in', ids).execute();
  }

  /** How the accounts are named where their words show, deleted accounts included (PeopleReader.names). */
  namesByIds(ids: string[]): Promise<PersonName[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'slug', 'avatar', 'deleted_at'])
      .where('id', 'in', ids)
      .execute();
  }

  /** Where mail reaches a live (not deleted) account, and how to greet it. */
  contactOf(id: string): Promise<AccountContact | undefined> {
    return this.db
      .selectFrom('users')
      .select(['email', 'username'])
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** The accounts others deal with: verified, active, not banned, not deleted. */
  private activeAccounts() {
    return this.db
      .selectFrom('users')
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true)
      .where('is_banned', '=', false)
      .where('is_verified', '=', true);
  }

  /** The accounts among these that others may deal with (as findActiveById). */
  findManyActiveById(ids: string[]): Promise<UserRow[]> {
    return this.activeAccounts().selectAll().where('id', 'in', ids).execute();
  }

  /**
   * Of these users, those who may be named in `viewerId`'s audience: active, with a public profile,
   * not opted out (POST /users/me/privacy/opt-out), and neither blocking the viewer nor blocked.
   */
  findAudienceMembers(ids: readonly string[], viewerId: string): Promise<UserRow[]> {
    return this.activeAccounts()
      .selectAll()
      .where('id', 'in', [...ids])
      .where('is_public', '=', true)
      .where(notBlockedSql(viewerId, 'users.id'))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('user_preferences as opted')
              .select('opted.user_id')
              .whereRef('opted.user_id', '=', 'users.id')
              .where('opted.do_not_sell_at', 'is not', null),
          ),
        ),
      )
      .execute();
  }

  /** A user whose tokens may act: verified, active, not banned, not deleted. */
  findActiveById(id: string): Promise<UserRow | undefined> {
    return this.activeAccounts().selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * A user who may act now: active as findActiveById says, and not suspended (a suspension whose
   * end has passed no longer counts, even before the job clears it). Every credential is checked
   * against this one: tokens, API and webhook keys, sockets, webhook deliveries.
   */
  findActingById(id: string): Promise<UserRow | undefined> {
    return this.acting().where('id', '=', id).executeTakeFirst();
  }

  /** The account of this username (any case: usernames are citext) if it may act now, as findActingById says. */
  findActingByUsername(username: string): Promise<UserRow | undefined> {
    return this.acting().where('username', '=', username).executeTakeFirst();
  }

  /** The users of `ids` who may act now (as findActingById), in one statement. */
  async findActingByIds(ids: readonly string[]): Promise<UserRow[]> {
    if (ids.length === 0) return [];
    return this.acting()
      .where('id', 'in', [...ids])
      .execute();
  }

  private acting() {
    return this.activeAccounts()
      .selectAll()
      .where((eb) =>
        eb.or([
          eb('suspended_at', 'is', null),
          eb.and([eb('suspended_until', 'is not', null), eb('suspended_until', '<=', sql<Date>`now()`)]),
        ]),
      );
  }

  /** A live account's row, locked until the transaction ends (a sanction changes it). */
  findForUpdate(id: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
  }

  /** Clears a suspension whose end has passed (a suspension only an admin lifts never ends so); true when it did. */
  async clearEndedSuspension(id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ suspended_at: null, suspended_until: null, updated_at: now })
      .where('id', '=', id)
      .where('suspended_at', 'is not', null)
      .where('suspended_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The next `limit` ids after `after` (by id) of the accounts an announcement reaches: active,
   * verified, not banned or deleted; for `creators`, those who became creators.
   */
  async audiencePage(audience: 'all' | 'creators', after: string | null, limit: number): Promise<string[]> {
    let query = this.activeAccounts().select('id');
    if (audience === 'creators') {
      // written out, not as parameters: it is the predicate of the partial index users_creators (migration
      // 0028), which a prepared statement's generic plan can use only if it can read the values
      query = query.where(sql<boolean>`(role = 'creator' or promoted_to_creator_at is not null)`);
    }
    if (after) query = query.where('id', '>', after);
    return (await query.orderBy('id').limit(limit).execute()).map((row) => row.id);
  }

  /** Holds the account row's lock until the transaction ends; callers serialise per-user limits on it. */
  async lockAccount(id: string): Promise<void> {
    await this.db.selectFrom('users').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
  }

  /** Emails are compared ignoring case (citext). */
  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  async emailTaken(email: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
    return row !== undefined;
  }

  /** Usernames are unique ignoring case, deleted accounts included (their names stay reserved). */
  async usernameTaken(username: string): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst();
    return row !== undefined;
  }

  async slugsLike(base: string, exceptUserId?: string): Promise<string[]> {
    let query = this.db.selectFrom('users').select('slug').where('slug', 'like', `${base}%`);
    if (exceptUserId) query = query.where('id', '!=', exceptUserId);
    const rows = await query.execute();
    return rows.map((row) => row.slug);
  }

  insert(user: NewUser): Promise<UserRow> {
    return this.db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow();
  }

  update(id: string, changes: UserUpdate): Promise<UserRow | undefined> {
    return this.db
      .updateTable('users')
      .set({ ...changes, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  async bumpTokenVersion(id: string, changes: UserUpdate = {}): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ ...changes, token_version: eb('token_version', '+', 1), updated_at: new Date() }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Grants or takes back admin rights by email, role and is_admin together (taken back, an admin
   * is a creator again if they were promoted to one, else a user; a moderator stays one); answers
   * who, or undefined when no live account has it.
   */
  setAdmin(email: string, admin: boolean): Promise<{ id: string; username: string } | undefined> {
    return this.db
      .updateTable('users')
      .set((eb) => ({
        is_admin: admin,
        role: admin
          ? 'admin'
          : eb
              .case()
              .when('role', '!=', 'admin')
              .then(eb.ref('role'))
              .when('promoted_to_creator_at', 'is not', null)
              .then(sql<UserRole>`'creator'`)
              .else(sql<UserRole>`'user'`)
              .end(),
        updated_at: new Date(),
      }))
      .where('email', '=', email)
      .where('deleted_at', 'is', null)
      .returning(['id', 'username'])
      .executeTakeFirst();
  }

  async recordLogin(id: string, at: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ login_count: eb('login_count', '+', 1), last_login_at: at }))
      .where('id', '=', id)
      .execute();
  }

  /** Accepts a TOTP time step only if it is newer than the last accepted one (replay guard). */
  async advanceTwoFactorStep(id: string, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ two_factor_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('two_factor_last_step', 'is', null), eb('two_factor_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

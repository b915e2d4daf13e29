import { sql } from 'kysely';
import type { GroupRole } from '@riff/contract';
import { activeUserSql, inactiveUserSql } from '../users/people-sql.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { pageWithTotal, totalCount } from '../../platform/db/page-total.js';
import type { GroupInviteRow, GroupMemberRow, GroupRow } from './groups.tables.js';
import type { Paged } from './groups.repository.js';

/**
 * All SQL of a group's members, join requests, invites and bans. member_count changes in the same
 * transaction as the membership row, and only when a row was really added or removed (ON CONFLICT DO
 * NOTHING, DELETE … RETURNING), so parallel joins and accepts keep it exact.
 */
export class MembershipRepository {
  constructor(private readonly scope: DbScope) {}

  private get db() {
    return this.scope.db;
  }

  private async count(groupId: string, by: number): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ member_count: sql`member_count + ${by}` })
      .where('id', '=', groupId)
      .execute();
  }

  /** Adds a member; false when they were one already (nothing changes then). */
  async addMember(groupId: string, userId: string, role: GroupRole): Promise<boolean> {
    const added = await this.db
      .insertInto('group_members')
      .values({ group_id: groupId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (added) await this.count(groupId, 1);
    return added !== undefined;
  }

  /** Removes a member; false when they were not one. */
  async removeMember(groupId: string, userId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('group_members')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    if (removed) await this.count(groupId, -1);
    return removed !== undefined;
  }

  async member(groupId: string, userId: string): Promise<GroupMemberRow | undefined> {
    return this.db
      .selectFrom('group_members')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async setRole(groupId: string, userId: string, role: GroupRole): Promise<GroupMemberRow | undefined> {
    return this.db
      .updateTable('group_members')
      .set({ role })
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /**
   * A page of members of active accounts, by role (owner first), then joined date, read in the order
   * of the index group_members_order (migration 0041) and stopped at the page: never every member.
   */
  async members(groupId: string, role: GroupRole | undefined, window: { limit: number; offset: number }) {
    return this.db
      .selectFrom('group_members as m')
      .selectAll('m')
      .where('m.group_id', '=', groupId)
      .where(activeUserSql('m.user_id'))
      .$if(role !== undefined, (query) => query.where('m.role', '=', role!))
      .orderBy(sql`(case m.role when 'owner' then 0 when 'admin' then 1 when 'moderator' then 2 else 3 end)`)
      .orderBy('m.joined_at')
      .orderBy('m.user_id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
  }

  /**
   * How many members of active accounts the group has (of `role`), from its member_count (every
   * membership row) without counting them: less the few rows of inactive accounts (read from their
   * own index) and, for a role, less or among the few rows of the roles above member.
   */
  async activeMemberCount(groupId: string, memberCount: number, role: GroupRole | undefined): Promise<number> {
    const counted = (query: ReturnType<typeof this.inGroup>) =>
      query
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
        .then((row) => Number(row.n));
    if (role !== undefined && role !== 'member')
      return counted(this.inGroup(groupId).where('role', '=', role).where(activeUserSql('group_members.user_id')));
    const [inactive, ranked] = await Promise.all([
      counted(
        this.inGroup(groupId)
          .where(inactiveUserSql('group_members.user_id'))
          .$if(role === 'member', (query) => query.where('role', '=', 'member')),
      ),
      role === 'member' ? counted(this.inGroup(groupId).where('role', '<>', 'member')) : Promise.resolve(0),
    ]);
    return Math.max(0, memberCount - ranked - inactive);
  }

  private inGroup(groupId: string) {
    return this.db.selectFrom('group_members').where('group_id', '=', groupId);
  }

  /** Who is told of a join request: the owner and the admins. */
  async adminIds(groupId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('role', 'in', ['owner', 'admin'])
      .orderBy('joined_at')
      .execute();
    return rows.map((row) => row.user_id);
  }

  /** Adds a join request; false when one was pending already. */
  async addRequest(groupId: string, userId: string): Promise<boolean> {
    const added = await this.db
      .insertInto('group_join_requests')
      .values({ group_id: groupId, user_id: userId })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .returning('user_id')
      .executeTakeFirst();
    return added !== undefined;
  }

  async removeRequest(groupId: string, userId: string): Promise<boolean> {
    const removed = await this.db
      .deleteFrom('group_join_requests')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .returning('user_id')
      .executeTakeFirst();
    return removed !== undefined;
  }

  async requests(groupId: string, window: { limit: number; offset: number }) {
    const base = this.db
      .selectFrom('group_join_requests as r')
      .where('r.group_id', '=', groupId)
      .where(activeUserSql('r.user_id'));
    const rows = await base
      .selectAll('r')
      .select(totalCount())
      .orderBy('r.created_at')
      .orderBy('r.user_id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () =>
      Number((await base.select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow()).c),
    );
  }

  /** A new pending invite; undefined when one is pending already. */
  async addInvite(groupId: string, userId: string, invitedBy: string): Promise<GroupInviteRow | undefined> {
    return (
      this.db
        .insertInto('group_invites')
        .values({ group_id: groupId, user_id: userId, invited_by: invitedBy })
        // the predicate of the partial unique index, written as a literal: a bound parameter cannot prove it
        // once PostgreSQL plans the prepared statement generically (from its sixth run), and the insert fails
        .onConflict((oc) => oc.columns(['group_id', 'user_id']).where(sql<boolean>`status = 'pending'`).doNothing())
        .returningAll()
        .executeTakeFirst()
    );
  }

  async invite(id: string): Promise<GroupInviteRow | undefined> {
    return this.db.selectFrom('group_invites').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Closes a pending invite of this user (one caller wins a race): the invite, or undefined when not pending. */
  async closeInvite(id: string, userId: string, status: 'accepted' | 'declined'): Promise<GroupInviteRow | undefined> {
    return this.db
      .updateTable('group_invites')
      .set({ status, updated_at: sql`now()` })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
  }

  /** Accepts the user's pending invite to the group, if any (joining an invite-only group). */
  async acceptPendingOf(groupId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .updateTable('group_invites')
      .set({ status: 'accepted', updated_at: sql`now()` })
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Withdraws any pending invite of the user to the group (a ban). */
  async dropInvites(groupId: string, userId: string): Promise<void> {
    await this.db
      .deleteFrom('group_invites')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .execute();
  }

  /** The user's pending invites to live groups, newest first (which of them the user may see is the same rule: an invite opens the group). */
  async pendingInvitesOf(userId: string, window: { limit: number; offset: number }): Promise<Paged<GroupInviteRow>> {
    const base = this.db
      .selectFrom('group_invites as i')
      .innerJoin('groups as g', 'g.id', 'i.group_id')
      .where('i.user_id', '=', userId)
      .where('i.status', '=', 'pending')
      .where('g.deleted_at', 'is', null)
      .where('g.moderation_status', '=', 'visible');
    const rows = await base
      .selectAll('i')
      .select(totalCount())
      .orderBy('i.created_at', 'desc')
      .orderBy('i.id')
      .limit(window.limit)
      .offset(window.offset)
      .execute();
    return pageWithTotal(rows, async () =>
      Number((await base.select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow()).c),
    );
  }

  async ban(groupId: string, userId: string, bannedBy: string | null): Promise<void> {
    await this.db
      .insertInto('group_bans')
      .values({ group_id: groupId, user_id: userId, banned_by: bannedBy })
      .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
      .execute();
  }

  async isBanned(groupId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('group_bans')
      .select('user_id')
      .where('group_id', '=', groupId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A user's memberships, oldest first (the export). */
  async membershipsOf(userId: string): Promise<(GroupMemberRow & { group: GroupRow })[]> {
    const rows = await this.db
      .selectFrom('group_members as m')
      .innerJoin('groups as g', 'g.id', 'm.group_id')
      .where('m.user_id', '=', userId)
      .where('g.deleted_at', 'is', null)
      .selectAll('g')
      .select(['m.group_id', 'm.user_id', 'm.role', 'm.joined_at'])
      .orderBy('m.joined_at')
      .execute();
    return rows.map((row) => ({
      group_id: row.group_id,
      user_id: row.user_id,
      role: row.role,
      joined_at: row.joined_at,
      group: { ...row, id: row.group_id } as unknown as GroupRow,
    }));
  }

  /** Groups the user is a member of but does not own (a ban or an erasure takes them out). */
  async groupsJoinedNotOwned(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('group_members')
      .select('group_id')
      .where('user_id', '=', userId)
      .where('role', '!=', 'owner')
      .execute();
    return rows.map((row) => row.group_id);
  }

  /** The user's requests and invites everywhere go (erasure). */
  async eraseRequestsAndInvites(userId: string): Promise<{ requests: number; invites: number }> {
    const requests = await this.db.deleteFrom('group_join_requests').where('user_id', '=', userId).executeTakeFirst();
    const invites = await this.db.deleteFrom('group_invites').where('user_id', '=', userId).executeTakeFirst();
    return { requests: Number(requests.numDeletedRows), invites: Number(invites.numDeletedRows) };
  }

  /** The group passes to `userId` (a member): they become its owner, the old owner (if still a member) an admin. */
  async setOwner(groupId: string, oldOwnerId: string, userId: string): Promise<void> {
    await this.db
      .updateTable('groups')
      .set({ owner_id: userId, updated_at: sql`now()` })
      .where('id', '=', groupId)
      .execute();
    await this.setRole(groupId, oldOwnerId, 'admin');
    await this.setRole(groupId, userId, 'owner');
  }
}

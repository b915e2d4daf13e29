import {
  GROUPS_OWNED_MAX,
  groupRoleAtLeast,
  type Group,
  type GroupInvite,
  type GroupMember,
  type GroupMembersQuery,
  type GroupUserRequest,
  type PaginationQuery,
  type SetGroupRoleRequest,
} from '@riff/contract';
import type { Actor, UserActor } from '../../platform/access/actor.js';
import { isOwner } from '../../platform/access/ownership.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { badRequest, conflict, forbidden, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { Limiter } from '../../platform/rate-limit/rate-limiter.js';
import { withinLimit } from '../../platform/rate-limit/within-limit.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { GroupViews } from './group-views.js';
import { actingRole, canListMembers, canManageGroup, canReadGroup, mayRemove, maySetRole } from './groups.policy.js';
import type { GroupsRepository, GroupView } from './groups.repository.js';
import type { GroupsService } from './groups.service.js';
import type { GroupInviteRow, GroupMemberRow } from './groups.tables.js';
import type { MembershipRepository } from './membership.repository.js';

export interface MembershipServiceDeps {
  scope: DbScope;
  events: EventBus;
  groups: GroupsRepository;
  membership: MembershipRepository;
  views: GroupViews;
  /** Replies about groups, as GroupsService makes them. */
  replies: Pick<GroupsService, 'dto' | 'current'>;
  /** The users area's read port: accounts, blocks, profiles, and the account lock of a transfer's new owner. */
  people: Pick<PeopleReader, 'findActive' | 'findAccount' | 'blockedEitherWay' | 'profiles' | 'lockAccount'>;
  /** Join requests a user may make and invites a user may send, per hour. */
  limits: { requests: Limiter; invites: Limiter };
}

const subject = (id: string) => ({ resource: 'group', id });
const joinRequestsRefusal = (limit: number) => `At most ${limit} join requests an hour: try again later`;
const invitesRefusal = (limit: number) => `At most ${limit} invites an hour: try again later`;

/** Membership: joining by the group's policy, leaving, members, requests, invites, roles, removals, bans, transfer. */
export class MembershipService {
  constructor(private readonly deps: MembershipServiceDeps) {}

  private get db() {
    return this.deps.membership;
  }

  /** A member joined: the owner hears of it (a notification and their webhooks). */
  private async joined(actor: UserActor, view: GroupView, userId: string, via: 'join' | 'request' | 'invite') {
    await this.deps.events.record(actor, 'group.member_joined', {
      subject: subject(view.id),
      data: { user_id: userId, owner_id: view.owner_id, name: view.name, via },
      userId,
    });
  }

  /** The caller's view, where they may manage the group (owner, admins); 404/403 otherwise. */
  private async managed(actor: Actor, id: string): Promise<GroupView> {
    const view = await this.deps.views.required(actor, id);
    if (!canManageGroup(actor, view)) throw forbidden('Only the owner and the group’s admins may do this');
    return view;
  }

  /** POST /groups/{id}/join. */
  async join(actor: UserActor, id: string): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      if (view.my_banned) throw forbidden('You are banned from this group');
      if (view.my_role !== null) return this.deps.replies.dto(view);
      // an invite is an admin's yes: it lets the user in whatever the policy
      if (await this.db.acceptPendingOf(id, actor.id)) {
        await this.enter(actor, view, actor.id, 'invite');
      } else if (view.join_policy === 'open') {
        await this.enter(actor, view, actor.id, 'join');
      } else if (view.join_policy === 'request') {
        // a request notifies the owner and admins, so asking (again after withdrawing) is limited;
        // asking while a request is pending changes nothing and costs nothing
        if (!view.my_pending) {
          await withinLimit(this.deps.limits.requests, actor.id, joinRequestsRefusal, async () => {
            if (!(await this.db.addRequest(id, actor.id))) return;
            await this.deps.events.record(actor, 'group.join_requested', {
              subject: subject(id),
              data: { user_id: actor.id, name: view.name },
            });
          });
        }
      } else {
        throw forbidden('This group is by invitation only');
      }
      return this.deps.replies.current(actor, id);
    });
  }

  /** Makes the user a member (their request, if any, is answered by it). */
  private async enter(actor: UserActor, view: GroupView, userId: string, via: 'join' | 'request' | 'invite') {
    await this.db.removeRequest(view.id, userId);
    if (await this.db.addMember(view.id, userId, 'member')) await this.joined(actor, view, userId, via);
  }

  /** POST /groups/{id}/leave: a member leaves, or a pending request is withdrawn; the owner transfers first. */
  async leave(actor: UserActor, id: string): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      if (view.my_role === 'owner') throw badRequest('The owner must transfer the group before leaving it');
      if (view.my_role !== null) {
        await this.db.removeMember(id, actor.id);
        await this.deps.events.record(actor, 'group.member_left', {
          subject: subject(id),
          data: { user_id: actor.id },
        });
      } else if (!(await this.db.removeRequest(id, actor.id))) {
        throw badRequest('You are not a member of this group');
      }
      return this.deps.replies.current(actor, id);
    });
  }

  private async membersOut(actor: Actor, rows: GroupMemberRow[]): Promise<GroupMember[]> {
    const profiles = await this.deps.people.profiles(
      rows.map((row) => row.user_id),
      actor,
    );
    return rows.flatMap((row) => {
      const user = profiles.get(row.user_id);
      return user ? [{ user, role: row.role, joined_at: row.joined_at.toISOString() }] : [];
    });
  }

  /** GET /groups/{id}/members: anyone for a public group, members for a private one. */
  async members(actor: Actor, id: string, query: GroupMembersQuery) {
    const view = await this.deps.views.required(actor, id);
    if (!canListMembers(actor, view)) throw forbidden('Only members see the members of a private group');
    const window = pageWindow(query.page, query.limit);
    const total = await this.db.activeMemberCount(id, view.member_count, query.role);
    const rows = window.offset < total ? await this.db.members(id, query.role, window) : [];
    return { members: await this.membersOut(actor, rows), pagination: paginate(window, total) };
  }

  /** GET /groups/{id}/requests (admins). */
  async requests(actor: UserActor, id: string, query: PaginationQuery) {
    await this.managed(actor, id);
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.db.requests(id, window);
    const profiles = await this.deps.people.profiles(
      rows.map((row) => row.user_id),
      actor,
    );
    const requests = rows.flatMap((row) => {
      const user = profiles.get(row.user_id);
      return user ? [{ user, created_at: row.created_at.toISOString() }] : [];
    });
    return { requests, pagination: paginate(window, total) };
  }

  private async memberReply(actor: Actor, groupId: string, userId: string): Promise<GroupMember> {
    const row = await this.db.member(groupId, userId);
    const [member] = row ? await this.membersOut(actor, [row]) : [];
    if (!member) throw notFound('Member');
    return member;
  }

  /** POST /groups/{id}/requests/{userId}/approve (admins). */
  async approve(actor: UserActor, id: string, userId: string): Promise<GroupMember> {
    return this.deps.scope.transaction(async () => {
      const view = await this.managed(actor, id);
      if (!(await this.db.removeRequest(id, userId))) throw notFound('Join request');
      if (await this.db.addMember(id, userId, 'member')) await this.joined(actor, view, userId, 'request');
      return this.memberReply(actor, id, userId);
    });
  }

  /** POST /groups/{id}/requests/{userId}/deny (admins): the user may ask again. */
  async deny(actor: UserActor, id: string, userId: string) {
    return this.deps.scope.transaction(async () => {
      await this.managed(actor, id);
      if (!(await this.db.removeRequest(id, userId))) throw notFound('Join request');
      await this.deps.events.record(actor, 'group.request_denied', { subject: subject(id), data: { user_id: userId } });
      return { message: 'Join request denied' };
    });
  }

  private async inviteOut(actor: Actor, row: GroupInviteRow, view: GroupView): Promise<GroupInvite> {
    return {
      id: row.id,
      group: this.deps.replies.dto(view),
      user_id: row.user_id,
      invited_by: row.invited_by,
      status: row.status,
      created_at: row.created_at.toISOString(),
    };
  }

  /**
   * POST /groups/{id}/invites (admins): not a user banned from the group, nor one blocked either way
   * with the inviting admin or any admin of the group (they would meet in it).
   */
  async invite(actor: UserActor, id: string, body: GroupUserRequest): Promise<GroupInvite> {
    return withinLimit(this.deps.limits.invites, actor.id, invitesRefusal, () => this.inviteNow(actor, id, body));
  }

  private async inviteNow(actor: UserActor, id: string, body: GroupUserRequest): Promise<GroupInvite> {
    return this.deps.scope.transaction(async () => {
      const view = await this.managed(actor, id);
      const target = body.user_id;
      if (!(await this.deps.people.findActive(target))) throw notFound('User');
      if (await this.db.member(id, target)) throw conflict('This user is a member already');
      if (await this.db.isBanned(id, target)) throw forbidden('This user is banned from the group');
      const admins = new Set([actor.id, ...(await this.db.adminIds(id))]);
      for (const admin of admins) {
        if (await this.deps.people.blockedEitherWay(admin, target)) {
          throw forbidden('This user blocked an admin of the group or was blocked by one');
        }
      }
      const row = await this.db.addInvite(id, target, actor.id);
      if (!row) throw conflict('This user is invited already');
      await this.deps.events.record(actor, 'group.invited', {
        subject: subject(id),
        data: { user_id: target, invite_id: row.id },
      });
      return this.inviteOut(actor, row, view);
    });
  }

  /** GET /groups/invites/mine: pending invites to groups the caller may still reach. */
  async myInvites(actor: UserActor, query: PaginationQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.db.pendingInvitesOf(actor.id, window);
    const views = new Map(
      (
        await this.deps.groups.views(
          rows.map((row) => row.group_id),
          actor.id,
        )
      ).map((view) => [view.id, view]),
    );
    const invites: GroupInvite[] = [];
    for (const row of rows) {
      const view = views.get(row.group_id);
      if (view && canReadGroup(actor, view)) invites.push(await this.inviteOut(actor, row, view));
    }
    return { invites, pagination: paginate(window, total) };
  }

  /** The caller's own pending invite and the group it opens, or 404. */
  private async ownInvite(actor: UserActor, inviteId: string) {
    const row = await this.db.invite(inviteId);
    if (!row || row.user_id !== actor.id) throw notFound('Invite');
    const view = await this.deps.views.view(actor, row.group_id);
    if (!view) throw notFound('Invite');
    return { row, view };
  }

  /** POST /groups/invites/{inviteId}/accept: one of two parallel accepts adds the member, both answer the group. */
  async accept(actor: UserActor, inviteId: string): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      const { view } = await this.ownInvite(actor, inviteId);
      if (view.my_banned) throw forbidden('You are banned from this group');
      const closed = await this.db.closeInvite(inviteId, actor.id, 'accepted');
      if (!closed && !(await this.db.member(view.id, actor.id))) throw notFound('Invite');
      if (closed) await this.enter(actor, view, actor.id, 'invite');
      return this.deps.replies.current(actor, view.id);
    });
  }

  /** POST /groups/invites/{inviteId}/decline: the invite leaves every list. */
  async decline(actor: UserActor, inviteId: string) {
    return this.deps.scope.transaction(async () => {
      const { view } = await this.ownInvite(actor, inviteId);
      if (!(await this.db.closeInvite(inviteId, actor.id, 'declined'))) throw notFound('Invite');
      await this.deps.events.record(actor, 'group.invite_declined', {
        subject: subject(view.id),
        data: { invite_id: inviteId },
      });
      return { message: 'Invite declined' };
    });
  }

  /** PUT /groups/{id}/members/{userId}: the owner sets admins; admins set moderators and members. */
  async setRole(actor: UserActor, id: string, userId: string, body: SetGroupRoleRequest): Promise<GroupMember> {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      const role = actingRole(actor, view);
      if (!groupRoleAtLeast(role, 'admin')) throw forbidden('Only the owner and the group’s admins change roles');
      const target = await this.db.member(id, userId);
      if (!target) throw notFound('Member');
      if (!maySetRole(role, target.role, body.role)) throw forbidden('You may not give this role to this member');
      if (target.role !== body.role) {
        await this.db.setRole(id, userId, body.role);
        await this.deps.events.record(actor, 'group.role_changed', {
          subject: subject(id),
          data: { user_id: userId, role: body.role, previous: target.role },
        });
      }
      return this.memberReply(actor, id, userId);
    });
  }

  /** DELETE /groups/{id}/members/{userId}: moderators remove members, admins moderators too; never the owner. */
  async removeMember(actor: UserActor, id: string, userId: string) {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      const role = actingRole(actor, view);
      if (!groupRoleAtLeast(role, 'moderator')) throw forbidden('Only moderators and above remove members');
      const target = await this.db.member(id, userId);
      if (!target) throw notFound('Member');
      if (userId === actor.id) throw badRequest('Leave the group instead of removing yourself');
      if (!mayRemove(role, target.role)) throw forbidden('You may not remove this member');
      await this.db.removeMember(id, userId);
      await this.deps.events.record(actor, 'group.member_removed', { subject: subject(id), data: { user_id: userId } });
      return { message: 'Member removed' };
    });
  }

  /** POST /groups/{id}/bans/{userId} (admins): out of the group, and kept out. */
  async ban(actor: UserActor, id: string, userId: string) {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      const role = actingRole(actor, view);
      if (!groupRoleAtLeast(role, 'admin')) throw forbidden('Only the owner and the group’s admins ban');
      if (userId === actor.id) throw badRequest('You cannot ban yourself');
      if (!(await this.deps.people.findAccount(userId))) throw notFound('User');
      const target = await this.db.member(id, userId);
      if (!mayRemove(role, target?.role ?? null)) throw forbidden('You may not ban this member');
      await this.db.removeMember(id, userId);
      await this.db.removeRequest(id, userId);
      await this.db.dropInvites(id, userId);
      await this.db.ban(id, userId, actor.id);
      await this.deps.events.record(actor, 'group.member_banned', { subject: subject(id), data: { user_id: userId } });
      return { message: 'User banned from the group' };
    });
  }

  /** POST /groups/{id}/transfer: the owner hands the group to a member and becomes an admin. */
  async transfer(actor: UserActor, id: string, body: GroupUserRequest): Promise<Group> {
    return this.deps.scope.transaction(async () => {
      const view = await this.deps.views.required(actor, id);
      if (!isOwner(actor, view.owner_id)) throw forbidden('Only the owner transfers the group');
      await this.deps.groups.lock(id);
      const target = body.user_id === actor.id ? undefined : await this.db.member(id, body.user_id);
      if (!target) throw badRequest('The group passes only to one of its members');
      await this.deps.people.lockAccount(body.user_id);
      if ((await this.deps.groups.countOwned(body.user_id)) >= GROUPS_OWNED_MAX) {
        throw limitReached(`This user owns ${GROUPS_OWNED_MAX} groups already`);
      }
      await this.db.setOwner(id, actor.id, body.user_id);
      await this.deps.events.record(actor, 'group.transferred', {
        subject: subject(id),
        data: { from: actor.id, to: body.user_id },
      });
      return this.deps.replies.current(actor, id);
    });
  }
}

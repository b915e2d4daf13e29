import type { UserActor } from '../../platform/access/actor.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { toExportedMembership } from './groups.mapper.js';
import type { GroupsRepository } from './groups.repository.js';
import type { MembershipRepository } from './membership.repository.js';

export interface GroupAccountDataDeps {
  scope: DbScope;
  groups: GroupsRepository;
  membership: MembershipRepository;
}

/**
 * What the groups area holds of an account, and what becomes of it when the account goes (erasure)
 * or is banned: the account leaves every group it does not own; each group it owns passes to that
 * group's oldest admin (by joined date), or, without one, is hidden.
 */
export class GroupAccountData {
  constructor(private readonly deps: GroupAccountDataDeps) {}

  /** The export's `groups`: every membership, owned groups included, oldest first. */
  async exportFor(owner: UserActor) {
    return { groups: (await this.deps.membership.membershipsOf(owner.id)).map(toExportedMembership) };
  }

  /**
   * The account leaves the groups it does not own, and its owned groups pass to their oldest admin;
   * the ids of the owned groups left without one (for the caller to hide).
   */
  async releaseGroupsOf(userId: string): Promise<{ left: number; passed: number; orphaned: string[] }> {
    const { groups, membership } = this.deps;
    let left = 0;
    for (const groupId of await membership.groupsJoinedNotOwned(userId)) {
      if (await membership.removeMember(groupId, userId)) left++;
    }
    let passed = 0;
    const orphaned: string[] = [];
    for (const group of await groups.owned(userId)) {
      const heir = await groups.oldestAdmin(group.id, userId);
      if (!heir) {
        orphaned.push(group.id);
        continue;
      }
      await groups.lock(group.id);
      await membership.setOwner(group.id, userId, heir);
      // the former owner, made an admin by the transfer, leaves it too
      if (await membership.removeMember(group.id, userId)) left++;
      passed++;
    }
    return { left, passed, orphaned };
  }

  /** Erasure: memberships, requests and invites go; owned groups pass to their oldest admin or are hidden. */
  async eraseFor(owner: UserActor, moderation: ModeratedContent) {
    return this.deps.scope.transaction(async () => {
      const { left, passed, orphaned } = await this.releaseGroupsOf(owner.id);
      for (const id of orphaned) await moderation.setStatus(id, 'hidden', 'The owner’s account was deleted');
      const { requests, invites } = await this.deps.membership.eraseRequestsAndInvites(owner.id);
      return {
        removed_group_memberships: left,
        transferred_groups: passed,
        hidden_groups: orphaned.length,
        removed_group_requests: requests,
        removed_group_invites: invites,
      };
    });
  }
}

import type { ExportedGroupMembership, Group, GroupMemberStatus } from '@riff/contract';
import { withModerationState } from '../../platform/access/moderation.js';
import type { GroupView } from './groups.repository.js';
import type { GroupMemberRow, GroupRow } from './groups.tables.js';

/** The URL path of a group's avatar, as the API serves it. */
export const groupAvatarPath = (groupId: string) => `/api/v1/groups/${groupId}/avatar`;

/** Where the caller stands: a member, with a request waiting, holding an invite, or nowhere. */
function statusOf(view: GroupView): GroupMemberStatus | null {
  if (view.my_role !== null) return 'member';
  if (view.my_pending) return 'pending';
  if (view.my_invite_id !== null) return 'invited';
  return null;
}

/** A group as the contract shows it to the caller whose view it is (moderation state to owner and staff: the policy let them read it). */
export function toGroupDto(view: GroupView, publicBaseUrl: string): Group {
  const dto: Group = {
    id: view.id,
    slug: view.slug,
    name: view.name,
    description: view.description,
    avatar: view.avatar_large_key ? `${publicBaseUrl}${groupAvatarPath(view.id)}` : null,
    visibility: view.visibility,
    join_policy: view.join_policy,
    owner_id: view.owner_id,
    member_count: view.member_count,
    post_count: view.post_count,
    my_role: view.my_role,
    my_status: statusOf(view),
    created_at: view.created_at.toISOString(),
    updated_at: view.updated_at.toISOString(),
  };
  return withModerationState(dto, view);
}

/** A membership as the account export lists it. */
export function toExportedMembership(row: GroupMemberRow & { group: GroupRow }): ExportedGroupMembership {
  return {
    group_id: row.group_id,
    name: row.group.name,
    slug: row.group.slug,
    description: row.group.description,
    visibility: row.group.visibility,
    join_policy: row.group.join_policy,
    role: row.role,
    joined_at: row.joined_at.toISOString(),
  };
}

import { CREATED, OTHER_USER_ID, onePage, UPDATED, USER_ID } from '../../common/common.examples.js';
import { profile } from '../users/users.examples.js';
import type { ExportedGroupMembership } from './group-account.schemas.js';
import type { Group, GroupInvite, GroupJoinRequest, GroupMember } from './groups.schemas.js';

export const GROUP_ID = '3a7e1c9b-5d2f-4a8e-b6c4-1f0d9e8a7b65';
const INVITE_ID = '8d4b2f6a-0c1e-4d3b-9a5f-7e6c2b1a0d98';

export const group: Group = {
  id: GROUP_ID,
  slug: 'night-drive-collective',
  name: 'Night Drive Collective',
  description: 'Synthwave producers swapping stems and feedback',
  avatar: `https://riff.example.org/api/v1/groups/${GROUP_ID}/avatar`,
  visibility: 'public',
  join_policy: 'request',
  owner_id: USER_ID,
  member_count: 12,
  post_count: 48,
  my_role: 'owner',
  my_status: 'member',
  created_at: CREATED,
  updated_at: UPDATED,
};

const member: GroupMember = { user: profile, role: 'owner', joined_at: CREATED };
const request: GroupJoinRequest = {
  user: { ...profile, id: OTHER_USER_ID, username: 'theo.marsh' },
  created_at: UPDATED,
};
const invite: GroupInvite = {
  id: INVITE_ID,
  group: { ...group, my_role: null, my_status: 'invited' },
  user_id: OTHER_USER_ID,
  invited_by: USER_ID,
  status: 'pending',
  created_at: UPDATED,
};
const membership: ExportedGroupMembership = {
  group_id: GROUP_ID,
  name: group.name,
  slug: group.slug,
  description: group.description,
  visibility: 'public',
  join_policy: 'request',
  role: 'owner',
  joined_at: CREATED,
};

export const GROUPS_EXAMPLES: Record<string, unknown> = {
  Group: group,
  GroupMyRole: 'admin',
  GroupMyStatus: 'member',
  GroupMember: member,
  GroupJoinRequest: request,
  GroupInvite: invite,
  GroupReply: { group },
  GroupPage: { groups: [group], pagination: onePage(1) },
  GroupMemberReply: { member },
  GroupMemberPage: { members: [member], pagination: onePage(1) },
  GroupJoinRequestPage: { requests: [request], pagination: onePage(1) },
  GroupInviteReply: { invite },
  GroupInvitePage: { invites: [invite], pagination: onePage(1) },
  CreateGroupRequest: {
    name: 'Night Drive Collective',
    description: 'Synthwave producers swapping stems and feedback',
    visibility: 'public',
    join_policy: 'request',
  },
  UpdateGroupRequest: { description: 'Synthwave and darkwave producers', join_policy: 'open' },
  GroupUserRequest: { user_id: OTHER_USER_ID },
  SetGroupRoleRequest: { role: 'moderator' },
  SetGroupAvatarRequest: { file: 'collective.png' },
  ExportedGroupMembership: membership,
};

import type { GroupInviteStatus, GroupJoinPolicy, GroupRole, GroupVisibility } from '@riff/contract';
import type { Generated, Selectable } from 'kysely';
import type { ModerationColumns } from '../../platform/access/moderation.js';
import type { CreatedAt, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

export interface GroupsTable extends ModerationColumns {
  id: Generated<string>;
  slug: string;
  name: string;
  description: string | null;
  visibility: GroupVisibility;
  join_policy: GroupJoinPolicy;
  owner_id: string;
  /** Members, the owner included: kept in the same statement as each membership change. */
  member_count: Generated<number>;
  /** Kept by the posts of a group (their own area) from its events. */
  post_count: Generated<number>;
  avatar_large_key: string | null;
  avatar_small_key: string | null;
  avatar_content_type: string | null;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface GroupMembersTable {
  group_id: string;
  user_id: string;
  role: GroupRole;
  joined_at: CreatedAt;
}

export interface GroupJoinRequestsTable {
  group_id: string;
  user_id: string;
  created_at: CreatedAt;
}

export interface GroupInvitesTable {
  id: Generated<string>;
  group_id: string;
  user_id: string;
  invited_by: string | null;
  status: Generated<GroupInviteStatus>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface GroupBansTable {
  group_id: string;
  user_id: string;
  banned_by: string | null;
  created_at: CreatedAt;
}

export type GroupRow = Selectable<GroupsTable>;
export type GroupMemberRow = Selectable<GroupMembersTable>;
export type GroupInviteRow = Selectable<GroupInvitesTable>;

declare module '../../platform/db/database.schema.js' {
  interface Database {
    groups: GroupsTable;
    group_members: GroupMembersTable;
    group_join_requests: GroupJoinRequestsTable;
    group_invites: GroupInvitesTable;
    group_bans: GroupBansTable;
  }
}

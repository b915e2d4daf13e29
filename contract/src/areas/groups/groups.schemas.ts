import { z } from 'zod';
import { pageOf, PaginationQuerySchema, TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ModerationStateFields } from '../moderation/moderation-states.js';
import { ProfileSchema } from '../users/users.schemas.js';
import {
  GROUP_JOIN_POLICIES,
  GROUP_MEMBER_STATUSES,
  GROUP_ROLES,
  GROUP_VISIBILITIES,
  GroupJoinPolicySchema,
  GroupVisibilitySchema,
} from './group-enums.js';

/** Groups: communities of users (a band, a label, a class, a scene). */
export const GROUP_NAME_MIN = 3;
export const GROUP_NAME_MAX = 100;
export const GROUP_DESCRIPTION_MAX = 2000;
/** At most this many groups owned by one user (deleted ones do not count). */
export const GROUPS_OWNED_MAX = 10;

/** The roles an owner or an admin may give (ownership passes only by a transfer). */
export const GROUP_ASSIGNABLE_ROLES = ['admin', 'moderator', 'member'] as const;
export type GroupAssignableRole = (typeof GROUP_ASSIGNABLE_ROLES)[number];

/** The states of an invitation; a declined or accepted one is no longer listed. */
export const GROUP_INVITE_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type GroupInviteStatus = (typeof GROUP_INVITE_STATUSES)[number];

const name = z
  .string()
  .trim()
  .min(GROUP_NAME_MIN)
  .max(GROUP_NAME_MAX)
  .describe(`${GROUP_NAME_MIN} to ${GROUP_NAME_MAX} characters, trimmed`);
const description = z
  .string()
  .trim()
  .max(GROUP_DESCRIPTION_MAX)
  .describe(`At most ${GROUP_DESCRIPTION_MAX} characters`);

export const GroupMyRoleSchema = named(
  'GroupMyRole',
  z.enum(GROUP_ROLES).nullable().describe('The caller’s role in the group; null when not a member'),
);
export const GroupMyStatusSchema = named(
  'GroupMyStatus',
  z
    .enum(GROUP_MEMBER_STATUSES)
    .nullable()
    .describe('member, pending (a request waits), invited (an invite waits), or null'),
);

export const GroupSchema = named(
  'Group',
  z.object({
    id: UuidSchema,
    slug: z.string().describe('Unique, made from the name (with -2, -3… when taken)'),
    name: z.string(),
    description: z.string().nullable(),
    avatar: z.string().url().nullable().describe('Absolute URL of GET /groups/{id}/avatar; null without one'),
    visibility: z.enum(GROUP_VISIBILITIES),
    join_policy: z.enum(GROUP_JOIN_POLICIES),
    owner_id: UuidSchema,
    member_count: z.number().int().min(0).describe('Members, the owner included'),
    post_count: z.number().int().min(0),
    my_role: GroupMyRoleSchema,
    my_status: GroupMyStatusSchema,
    ...ModerationStateFields,
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Group = z.infer<typeof GroupSchema>;

export const GroupMemberSchema = named(
  'GroupMember',
  z.object({
    user: ProfileSchema,
    role: z.enum(GROUP_ROLES),
    joined_at: TimestampSchema,
  }),
);
export type GroupMember = z.infer<typeof GroupMemberSchema>;

export const GroupJoinRequestSchema = named(
  'GroupJoinRequest',
  z.object({ user: ProfileSchema, created_at: TimestampSchema }),
);
export type GroupJoinRequest = z.infer<typeof GroupJoinRequestSchema>;

export const GroupInviteSchema = named(
  'GroupInvite',
  z.object({
    id: UuidSchema,
    group: GroupSchema,
    user_id: UuidSchema.describe('The invited user'),
    invited_by: UuidSchema.nullable().describe('The admin who invited; null once their account is gone'),
    status: z.enum(GROUP_INVITE_STATUSES),
    created_at: TimestampSchema,
  }),
);
export type GroupInvite = z.infer<typeof GroupInviteSchema>;

export const CreateGroupRequestSchema = named(
  'CreateGroupRequest',
  z.object({
    name,
    description: description.optional(),
    visibility: GroupVisibilitySchema,
    join_policy: GroupJoinPolicySchema,
  }),
);
export type CreateGroupRequest = z.infer<typeof CreateGroupRequestSchema>;

export const UpdateGroupRequestSchema = named(
  'UpdateGroupRequest',
  z
    .object({
      name: name.optional(),
      description: description.nullable().optional(),
      visibility: GroupVisibilitySchema.optional(),
      join_policy: GroupJoinPolicySchema.optional(),
    })
    .refine((body) => Object.values(body).some((value) => value !== undefined), 'Send at least one field'),
);
export type UpdateGroupRequest = z.infer<typeof UpdateGroupRequestSchema>;

export const GroupUserRequestSchema = named('GroupUserRequest', z.object({ user_id: UuidSchema }));
export type GroupUserRequest = z.infer<typeof GroupUserRequestSchema>;

export const SetGroupRoleRequestSchema = named(
  'SetGroupRoleRequest',
  z.object({ role: z.enum(GROUP_ASSIGNABLE_ROLES) }),
);
export type SetGroupRoleRequest = z.infer<typeof SetGroupRoleRequestSchema>;

export const GroupListQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1).max(200).optional().describe('Words of the name'),
  member: z.literal('me').optional().describe('me: only the groups you are a member of'),
});
export type GroupListQuery = z.infer<typeof GroupListQuerySchema>;

export const GroupMembersQuerySchema = PaginationQuerySchema.extend({
  role: z.enum(GROUP_ROLES).optional().describe('Only members of this role'),
});
export type GroupMembersQuery = z.infer<typeof GroupMembersQuerySchema>;

export const GroupSlugParamsSchema = z.object({ slug: z.string().min(1).max(200) });
export const GroupMemberParamsSchema = z.object({ id: UuidSchema, userId: UuidSchema });
export const GroupInviteParamsSchema = z.object({ inviteId: UuidSchema });

export const GroupEnvelope = envelope(named('GroupReply', z.object({ group: GroupSchema })));
export const GroupPageEnvelope = envelope(named('GroupPage', pageOf('groups', GroupSchema)));
export const GroupMemberEnvelope = envelope(named('GroupMemberReply', z.object({ member: GroupMemberSchema })));
export const GroupMemberPageEnvelope = envelope(named('GroupMemberPage', pageOf('members', GroupMemberSchema)));
export const GroupRequestPageEnvelope = envelope(
  named('GroupJoinRequestPage', pageOf('requests', GroupJoinRequestSchema)),
);
export const GroupInviteEnvelope = envelope(named('GroupInviteReply', z.object({ invite: GroupInviteSchema })));
export const GroupInvitePageEnvelope = envelope(named('GroupInvitePage', pageOf('invites', GroupInviteSchema)));

import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { GROUP_JOIN_POLICIES, GROUP_ROLES, GROUP_VISIBILITIES } from './group-enums.js';

// Apart from groups.schemas.ts, which reads the users area's ProfileSchema: the users area's export
// document reads these, and a cycle of schema modules would leave one of them undefined.

/** Your part of the data export: a group you belong to (owned ones included) and your place in it. */
export const ExportedGroupMembershipSchema = named(
  'ExportedGroupMembership',
  z.object({
    group_id: UuidSchema,
    name: z.string(),
    slug: z.string(),
    description: z.string().nullable(),
    visibility: z.enum(GROUP_VISIBILITIES),
    join_policy: z.enum(GROUP_JOIN_POLICIES),
    role: z.enum(GROUP_ROLES).describe('owner for the groups you own'),
    joined_at: TimestampSchema,
  }),
);
export type ExportedGroupMembership = z.infer<typeof ExportedGroupMembershipSchema>;

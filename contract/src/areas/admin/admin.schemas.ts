import { z } from 'zod';
import {
  ClientTimestampSchema,
  PaginationQuerySchema,
  SORT_ORDERS,
  TimestampSchema,
  UuidSchema,
  pageOf,
} from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { SANCTION_KINDS } from '../moderation/moderation-states.js';
import { USER_ROLES } from '../users/users.schemas.js';

/** The longest announcement shown to everyone. */
export const ANNOUNCEMENT_MAX_LENGTH = 500;

/** An account as staff list it: what it may do now. Deleted wins over banned, banned over suspended. */
export const ACCOUNT_STATUSES = ['active', 'unverified', 'suspended', 'banned', 'deleted'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const ADMIN_USER_SORT_FIELDS = ['created_at', 'last_login_at', 'username', 'reports'] as const;
export type AdminUserSortField = (typeof ADMIN_USER_SORT_FIELDS)[number];

/** The periods of GET /admin/stats, in days. */
export const ADMIN_STATS_PERIODS = ['7d', '30d', '90d'] as const;
export type AdminStatsPeriod = (typeof ADMIN_STATS_PERIODS)[number];
/** Named: a generator that names the reply's inline enum and the query's alike would declare one type twice. */
const StatsPeriodSchema = named('StatsPeriod', z.enum(ADMIN_STATS_PERIODS));

const Bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The platform's settings, as admins set them; a value never set is the deployment's default. */
export const PlatformSettingsSchema = named(
  'PlatformSettings',
  z.object({
    registration_open: z.boolean().describe('false: POST /auth/register is 403 REGISTRATION_CLOSED'),
    uploads_enabled: z.boolean().describe('false: every audio upload is 403 UPLOADS_DISABLED'),
    default_quota_bytes: Bytes.describe('The upload quota of an account without one of its own'),
    max_upload_bytes: Bytes.min(1).describe('The largest audio file accepted (413 PAYLOAD_TOO_LARGE above)'),
    announcement: z
      .string()
      .max(ANNOUNCEMENT_MAX_LENGTH)
      .nullable()
      .describe('Shown to everyone by GET /config/announcement; null for none'),
    updated_at: TimestampSchema.nullable().describe('When an admin last changed them; null while never changed'),
    updated_by: UuidSchema.nullable().describe('Who changed them last; null while never changed or once erased'),
  }),
);
export type PlatformSettings = z.infer<typeof PlatformSettingsSchema>;

export const PlatformSettingsReplySchema = named(
  'PlatformSettingsReply',
  z.object({ settings: PlatformSettingsSchema }),
);

export const UpdatePlatformSettingsRequestSchema = named(
  'UpdatePlatformSettingsRequest',
  z
    .object({
      registration_open: z.boolean().optional(),
      uploads_enabled: z.boolean().optional(),
      default_quota_bytes: Bytes.optional(),
      max_upload_bytes: Bytes.min(1).optional(),
      announcement: z.string().trim().max(ANNOUNCEMENT_MAX_LENGTH).nullable().optional(),
    })
    .refine((body) => Object.keys(body).length > 0, { message: 'send at least one setting' }),
);
export type UpdatePlatformSettingsRequest = z.infer<typeof UpdatePlatformSettingsRequestSchema>;

export const AnnouncementSchema = named(
  'Announcement',
  z.object({
    announcement: z
      .string()
      .max(ANNOUNCEMENT_MAX_LENGTH)
      .nullable()
      .describe('The admins’ message to everyone, or null'),
  }),
);

/** A sanction of an account, as the account's record shows it to staff. */
export const AdminUserSanctionSchema = named(
  'AdminUserSanction',
  z.object({
    id: UuidSchema,
    kind: z.enum(SANCTION_KINDS),
    reason: z.string(),
    actor_id: UuidSchema.nullable(),
    created_at: TimestampSchema,
    ends_at: TimestampSchema.nullable(),
    lifted_at: TimestampSchema.nullable(),
    lifted_by: UuidSchema.nullable(),
  }),
);
export type AdminUserSanction = z.infer<typeof AdminUserSanctionSchema>;

/** An account as staff see it: the whole record, its state and its standing. */
export const AdminUserSchema = named(
  'AdminUser',
  z.object({
    id: UuidSchema,
    username: z.string(),
    email: z.string().nullable(),
    slug: z.string(),
    role: z.enum(USER_ROLES),
    is_admin: z.boolean(),
    is_active: z.boolean(),
    is_banned: z.boolean(),
    is_verified: z.boolean(),
    is_public: z.boolean(),
    status: z.enum(ACCOUNT_STATUSES),
    email_verified_at: TimestampSchema.nullable(),
    last_login_at: TimestampSchema.nullable(),
    login_count: z.number().int().min(0),
    two_factor_enabled: z.boolean(),
    suspended_at: TimestampSchema.nullable(),
    suspended_until: TimestampSchema.nullable(),
    quota_bytes: Bytes.nullable().describe('The account’s own upload quota; null for the platform’s default'),
    effective_quota_bytes: Bytes.describe('The quota its uploads are counted against'),
    open_reports: z.number().int().min(0).describe('Open reports against the account or its content'),
    active_strikes: z.number().int().min(0).describe('Copyright strikes not yet expired'),
    sanctions: z.array(AdminUserSanctionSchema).describe('Every sanction of the account, newest first'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
    deleted_at: TimestampSchema.nullable(),
  }),
);
export type AdminUser = z.infer<typeof AdminUserSchema>;

export const AdminUserReplySchema = named('AdminUserReply', z.object({ user: AdminUserSchema }));
export const AdminUserPageSchema = named('AdminUserPage', pageOf('users', AdminUserSchema));

export const AdminUserListQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1).max(100).optional().describe('Part of the username or email'),
  role: z.enum(USER_ROLES).optional(),
  status: z.enum(ACCOUNT_STATUSES).optional(),
  sort: z.enum(ADMIN_USER_SORT_FIELDS).default('created_at'),
  order: z.enum(SORT_ORDERS).default('desc'),
});
export type AdminUserListQuery = z.infer<typeof AdminUserListQuerySchema>;

export const SetUserRoleRequestSchema = named('SetUserRoleRequest', z.object({ role: z.enum(USER_ROLES) }));
export type SetUserRoleRequest = z.infer<typeof SetUserRoleRequestSchema>;

export const SetUserQuotaRequestSchema = named(
  'SetUserQuotaRequest',
  z.object({
    limit_bytes: Bytes.nullable().describe('The account’s own quota in bytes; null returns it to the default'),
  }),
);
export type SetUserQuotaRequest = z.infer<typeof SetUserQuotaRequestSchema>;

export const AdminStatsQuerySchema = z.object({
  period: z.enum(ADMIN_STATS_PERIODS).default('30d').describe('What counts as new: the last 7, 30 or 90 days'),
});

const Count = z.number().int().min(0);

export const AdminStatsSchema = named(
  'AdminStats',
  z.object({
    period: StatsPeriodSchema,
    users: z.object({
      total: Count.describe('Live accounts (not deleted)'),
      new: Count,
      active_daily: Count.describe('Signed in within the last day'),
      active_weekly: Count,
      active_monthly: Count,
      suspended: Count,
      banned: Count,
    }),
    content: z.object({
      tracks: Count,
      tracks_new: Count,
      storage_bytes: Bytes.describe('Bytes of the live tracks’ audio'),
      comments_new: Count,
      playlists_new: Count,
    }),
    plays: Count.describe('Counted plays in the period'),
    marketplace: z.object({
      orders: Count.describe('Orders completed in the period'),
      revenue_cents_by_currency: z.record(z.number().int()).describe('Completed orders’ totals, by currency'),
      refunds: Count.describe('Orders refunded in the period'),
    }),
    moderation: z.object({
      open_reports: Count,
      open_cases: Count,
      pending_claims: Count,
      open_appeals: Count,
      median_hours_to_resolve: z.number().min(0).nullable().describe('Over the cases resolved in the period'),
    }),
  }),
);
export type AdminStats = z.infer<typeof AdminStatsSchema>;

export const StaffLogEntrySchema = named(
  'StaffLogEntry',
  z.object({
    id: UuidSchema,
    actor_id: UuidSchema.describe('The staff member (a pseudonymous id once their account is erased)'),
    action: z.string(),
    target_type: z.string().nullable(),
    target_id: UuidSchema.nullable(),
    reason: z.string().nullable(),
    before: z
      .record(z.unknown())
      .nullable()
      .describe('What the action changed, before it (null when nothing was there)'),
    after: z.record(z.unknown()).nullable().describe('What the action changed, after it'),
    request_id: z.string().nullable(),
    created_at: TimestampSchema,
  }),
);
export type StaffLogEntry = z.infer<typeof StaffLogEntrySchema>;

export const StaffLogPageSchema = named('StaffLogPage', pageOf('entries', StaffLogEntrySchema));

export const StaffLogQuerySchema = PaginationQuerySchema.extend({
  actor_id: UuidSchema.optional(),
  action: z.string().trim().min(1).max(100).optional(),
  target_type: z.string().trim().min(1).max(50).optional(),
  target_id: UuidSchema.optional(),
  from: ClientTimestampSchema.optional().describe('Entries at or after this moment'),
  to: ClientTimestampSchema.optional().describe('Entries before this moment'),
});
export type StaffLogQuery = z.infer<typeof StaffLogQuerySchema>;

/** Who an announcement goes to: every active account, or the creators (role creator, and staff who create). */
export const ANNOUNCEMENT_AUDIENCES = ['all', 'creators'] as const;
export type AnnouncementAudience = (typeof ANNOUNCEMENT_AUDIENCES)[number];
export const ANNOUNCEMENT_MESSAGE_MAX = 500;

export const SendAnnouncementRequestSchema = named(
  'SendAnnouncementRequest',
  z.object({
    message: z.string().trim().min(1).max(ANNOUNCEMENT_MESSAGE_MAX),
    audience: z.enum(ANNOUNCEMENT_AUDIENCES),
  }),
);
export type SendAnnouncementRequest = z.infer<typeof SendAnnouncementRequestSchema>;

export const AnnouncementQueuedSchema = named(
  'AnnouncementQueued',
  z.object({
    id: UuidSchema.describe('Names the announcement in the staff log'),
    message: z.string(),
    audience: z.enum(ANNOUNCEMENT_AUDIENCES),
    queued_at: TimestampSchema,
  }),
);
export type AnnouncementQueued = z.infer<typeof AnnouncementQueuedSchema>;

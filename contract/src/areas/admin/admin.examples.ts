/** Examples of the admin area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { CREATED, OTHER_USER_ID, UPDATED, USER_ID, onePage } from '../../common/common.examples.js';
import type {
  AnnouncementQueued,
  SendAnnouncementRequest,
  AdminStats,
  AdminUser,
  AdminUserSanction,
  PlatformSettings,
  StaffLogEntry,
} from './admin.schemas.js';

const GiB = 1024 * 1024 * 1024;

const settings: PlatformSettings = {
  registration_open: true,
  uploads_enabled: true,
  default_quota_bytes: 10 * GiB,
  max_upload_bytes: 512 * 1024 * 1024,
  announcement: 'Maintenance on Sunday 02:00–03:00 UTC: uploads pause for an hour.',
  updated_at: UPDATED,
  updated_by: OTHER_USER_ID,
};

const sanction: AdminUserSanction = {
  id: '9d3c7b1a-2e4f-4a6b-8c0d-1e2f3a4b5c6d',
  kind: 'warn',
  reason: 'Spam in comments',
  actor_id: OTHER_USER_ID,
  created_at: CREATED,
  ends_at: null,
  lifted_at: null,
  lifted_by: null,
};

const adminUser: AdminUser = {
  id: USER_ID,
  username: 'mira.lane',
  email: 'mira@example.org',
  slug: 'mira-lane',
  role: 'creator',
  is_admin: false,
  is_active: true,
  is_banned: false,
  is_verified: true,
  is_public: true,
  status: 'active',
  email_verified_at: CREATED,
  last_login_at: UPDATED,
  login_count: 42,
  two_factor_enabled: false,
  suspended_at: null,
  suspended_until: null,
  quota_bytes: null,
  effective_quota_bytes: 10 * GiB,
  open_reports: 1,
  active_strikes: 0,
  sanctions: [sanction],
  created_at: CREATED,
  updated_at: UPDATED,
  deleted_at: null,
};

const stats: AdminStats = {
  period: '30d',
  users: { total: 1280, new: 96, active_daily: 210, active_weekly: 640, active_monthly: 1010, suspended: 3, banned: 2 },
  content: { tracks: 5400, tracks_new: 310, storage_bytes: 187 * GiB, comments_new: 1250, playlists_new: 180 },
  plays: 48210,
  marketplace: { orders: 64, revenue_cents_by_currency: { USD: 128_400, EUR: 23_900 }, refunds: 2 },
  moderation: { open_reports: 7, open_cases: 5, pending_claims: 1, open_appeals: 0, median_hours_to_resolve: 6.5 },
};

const entry: StaffLogEntry = {
  id: '4b8e2d6f-0a1c-4e3b-9d5f-7a2c4e6b8d0f',
  actor_id: OTHER_USER_ID,
  action: 'user.role',
  target_type: 'user',
  target_id: USER_ID,
  reason: null,
  before: { role: 'user', is_admin: false },
  after: { role: 'moderator', is_admin: false },
  request_id: 'req-7f3a9c',
  created_at: UPDATED,
};

const announcementRequest: SendAnnouncementRequest = {
  message: 'Uploads pause on Sunday 02:00–03:00 UTC for maintenance.',
  audience: 'creators',
};

const announcementQueued: AnnouncementQueued = {
  id: '4b8d2f6a-1c3e-4a5b-9d7f-0e2a4c6b8d1f',
  ...announcementRequest,
  queued_at: UPDATED,
};

export const ADMIN_EXAMPLES: Record<string, unknown> = {
  SendAnnouncementRequest: announcementRequest,
  AnnouncementQueued: announcementQueued,
  StatsPeriod: '30d',
  PlatformSettings: settings,
  PlatformSettingsReply: { settings },
  UpdatePlatformSettingsRequest: { uploads_enabled: false, announcement: settings.announcement },
  Announcement: { announcement: settings.announcement },
  AdminUserSanction: sanction,
  AdminUser: adminUser,
  AdminUserReply: { user: adminUser },
  AdminUserPage: { users: [adminUser], pagination: onePage(1) },
  SetUserRoleRequest: { role: 'moderator' },
  SetUserQuotaRequest: { limit_bytes: 20 * GiB },
  AdminStats: stats,
  StaffLogEntry: entry,
  StaffLogPage: { entries: [entry], pagination: onePage(1) },
};

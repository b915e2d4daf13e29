import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import {
  DateSchema,
  IdParamsSchema,
  MessageSchema,
  PaginationQuerySchema,
  TimestampSchema,
  UserIdOrMeSchema,
  UuidSchema,
  pageOf,
  queryBoolean,
  queryInt,
} from '../common/common.schemas.js';
import { envelope, errors } from '../common/envelope.schemas.js';
import { named, withOpenApi } from '../common/openapi-meta.js';
import { optionalAuth, userOnlyRoute, userRoute } from '../common/route-meta.js';
import { GENDERS, USER_ROLES, UserSchema } from './users.schemas.js';
import { LyricsSchema, TrackSchema } from './tracks.contract.js';

const c = initContract();

/**
 * A user as someone else sees them. A private profile (is_public false) shows others only id,
 * username, slug, avatar and is_public; email is shown only to its owner and admins.
 */
export const ProfileSchema = named(
  'Profile',
  z.object({
    id: UuidSchema,
    username: z.string(),
    slug: z.string(),
    avatar: z.string().nullable(),
    is_public: z.boolean(),
    email: z.string().nullable().optional(),
    first_name: z.string().nullable().optional(),
    last_name: z.string().nullable().optional(),
    bio: z.string().nullable().optional(),
    banner_url: z.string().nullable().optional(),
    location: z.string().nullable().optional(),
    birthdate: z.string().nullable().optional(),
    gender: z.enum(GENDERS).nullable().optional(),
    social_links: z.record(z.string()).optional(),
    role: z.enum(USER_ROLES).optional(),
    is_verified: z.boolean().optional(),
    is_admin: z.boolean().optional(),
    promoted_to_creator_at: TimestampSchema.nullable().optional(),
    username_changed_at: TimestampSchema.nullable().optional(),
    follower_count: z.number().int().optional(),
    following_count: z.number().int().optional(),
    is_following: z.boolean().optional().describe('Whether the caller follows this user (authenticated callers only)'),
    created_at: TimestampSchema.optional(),
  }),
);
export type Profile = z.infer<typeof ProfileSchema>;

/** An absolute http(s) URL: other schemes (javascript:, data:, file:) would be stored XSS in every frontend. */
const WebUrlSchema = withOpenApi(
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol), 'must be an absolute http: or https: URL'),
  { format: 'uri', pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' },
);

const EARLIEST_BIRTHDATE = '1900-01-01';
const BirthdateSchema = DateSchema.refine(
  (value) => value >= EARLIEST_BIRTHDATE && value <= new Date().toISOString().slice(0, 10),
  `must be a date between ${EARLIEST_BIRTHDATE} and today`,
).describe(`YYYY-MM-DD, from ${EARLIEST_BIRTHDATE} to today`);

const SocialLinksSchema = z
  .record(z.string().max(50), WebUrlSchema)
  .refine((links) => Object.keys(links).length <= 20, 'at most 20 links')
  .describe('Link name to URL, at most 20');

export const UpdateProfileRequestSchema = named(
  'UpdateProfileRequest',
  z.object({
    username: z
      .string()
      .min(3)
      .max(30)
      .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, ".", "_" and "-"')
      .optional(),
    first_name: z.string().max(100).nullable().optional(),
    last_name: z.string().max(100).nullable().optional(),
    bio: z.string().max(500).nullable().optional(),
    location: z.string().max(100).nullable().optional(),
    avatar: WebUrlSchema.nullable().optional().describe('Absolute http(s) URL of the profile picture'),
    banner_url: WebUrlSchema.nullable().optional().describe('Absolute http(s) URL'),
    birthdate: BirthdateSchema.nullable().optional(),
    gender: z.enum(GENDERS).nullable().optional(),
    is_public: z.boolean().optional(),
    social_links: SocialLinksSchema.optional(),
  }),
);

export const DeleteAccountRequestSchema = named(
  'DeleteAccountRequest',
  z.object({
    confirm_text: z.literal('DELETE', { errorMap: () => ({ message: 'must be exactly DELETE' }) }),
    password: z.string().min(1).max(256),
    reason: z.string().max(1000).optional(),
    keep_public_tracks: z.boolean().optional().describe('When true, public tracks stay attributed to the deleted account'),
  }),
);

export const PreferencesSchema = named(
  'Preferences',
  z.object({
    notifications: z.object({
      email_new_follower: z.boolean(),
      email_comments: z.boolean(),
      email_purchases: z.boolean(),
      email_product_updates: z.boolean(),
      push_enabled: z.boolean(),
    }),
    privacy: z.object({
      show_activity: z.boolean(),
      show_listening_history: z.boolean(),
      allow_messages_from: z.enum(['everyone', 'followers', 'nobody']),
      do_not_sell: z.boolean().describe('Set by POST /users/me/privacy/opt-out'),
    }),
    playback: z.object({
      autoplay: z.boolean(),
      crossfade_seconds: z.number().int().min(0).max(12),
      audio_quality: z.enum(['low', 'normal', 'high', 'lossless']),
      normalize_volume: z.boolean(),
    }),
  }),
);
export type Preferences = z.infer<typeof PreferencesSchema>;

/** Every field optional: PUT merges what is sent into the stored preferences. */
export const UpdatePreferencesRequestSchema = named(
  'UpdatePreferencesRequest',
  z.object({
    notifications: PreferencesSchema.shape.notifications.partial().optional(),
    privacy: PreferencesSchema.shape.privacy.omit({ do_not_sell: true }).partial().optional(),
    playback: PreferencesSchema.shape.playback.partial().optional(),
  }),
);

export const AuditEntrySchema = named(
  'AuditEntry',
  z.object({
    id: UuidSchema,
    user_id: UuidSchema.nullable(),
    action: z.string(),
    resource: z.string(),
    resource_id: z.string().nullable(),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    metadata: z.record(z.unknown()),
    created_at: TimestampSchema,
  }),
);

export const UserExportSchema = named(
  'UserExport',
  z.object({
    exported_at: TimestampSchema,
    profile: UserSchema,
    preferences: PreferencesSchema,
    following: z.array(z.object({ user_id: UuidSchema, username: z.string(), since: TimestampSchema })),
    followers: z.array(z.object({ user_id: UuidSchema, username: z.string(), since: TimestampSchema })),
    blocks: z.array(z.object({ user_id: UuidSchema, username: z.string(), since: TimestampSchema })),
    tracks: z.array(TrackSchema),
    lyrics: z.array(LyricsSchema).describe('Lyrics of your tracks'),
    audit_logs: z.array(AuditEntrySchema),
  }),
);

export type UserExport = z.infer<typeof UserExportSchema>;

const ProfileEnvelope = envelope(named('ProfileReply', z.object({ profile: ProfileSchema })));
const UserListEnvelope = envelope(named('UserPage', pageOf('users', ProfileSchema)));
const idOrMe = z.object({ id: UserIdOrMeSchema });

export const usersContract = c.router({
  list: {
    method: 'GET',
    path: '/users',
    summary: 'List users',
    description:
      'Active, verified users, filtered and sorted. search matches username, and first_name and last_name only where the caller ' +
      'may see them (public profiles, the caller’s own; everything and email too for admins). ' +
      'Sorting by email is for admins only.',
    metadata: optionalAuth,
    query: PaginationQuerySchema.extend({
      role: z.enum(USER_ROLES).optional(),
      is_active: queryBoolean().optional(),
      is_verified: queryBoolean().optional(),
      search: z.string().trim().min(1).max(100).optional(),
      sort_by: z.enum(['created_at', 'username', 'email', 'last_login_at']).default('created_at'),
      sort_order: z.enum(['asc', 'desc']).default('desc'),
    }),
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403) },
  },
  search: {
    method: 'GET',
    path: '/users/search',
    summary: 'Search users',
    description:
      'Matches username, and first_name and last_name only where the caller may see them (public profiles, the caller’s own; all for admins); ' +
      'exact and prefix matches of the username rank first. Accounts whose email is not verified are not listed.',
    metadata: optionalAuth,
    query: PaginationQuerySchema.extend({ q: z.string().trim().min(1).max(100) }),
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403) },
  },
  suggestions: {
    method: 'GET',
    path: '/users/suggestions',
    summary: 'Users to follow',
    description: 'Excludes the caller, people the caller follows, and blocks either way. Most followed first.',
    metadata: userRoute,
    query: z.object({ limit: queryInt(1, 50).default(10) }),
    responses: { 200: envelope(named('UserSuggestions', z.object({ users: z.array(ProfileSchema) }))), ...errors(400, 401, 403) },
  },
  byUsername: {
    method: 'GET',
    path: '/users/by-username/:username',
    summary: 'A profile by username',
    metadata: optionalAuth,
    pathParams: z.object({ username: z.string().min(1).max(50) }),
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404) },
  },
  get: {
    method: 'GET',
    path: '/users/:id',
    summary: 'A profile',
    metadata: optionalAuth,
    pathParams: idOrMe,
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404) },
  },
  update: {
    method: 'PUT',
    path: '/users/:id',
    summary: 'Update your profile',
    description: 'Owner only. Changing the username re-derives the slug and sets username_changed_at.',
    metadata: userRoute,
    pathParams: idOrMe,
    body: UpdateProfileRequestSchema,
    responses: { 200: ProfileEnvelope, ...errors(400, 401, 403, 404, 409, 413, 415) },
  },
  remove: {
    method: 'DELETE',
    path: '/users/:id',
    summary: 'Deactivate an account (soft delete)',
    description: 'Owner or admin. The account is hidden and its sessions end; its data is kept.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 403, 404) },
  },
  completion: {
    method: 'GET',
    path: '/users/:id/completion',
    summary: 'Profile completion',
    metadata: userRoute,
    pathParams: idOrMe,
    responses: {
      200: envelope(
        named(
          'ProfileCompletion',
          z.object({ percentage: z.number().int().min(0).max(100), completed_fields: z.array(z.string()), missing_fields: z.array(z.string()) }),
        ),
      ),
      ...errors(400, 401, 403, 404),
    },
  },
  follow: {
    method: 'POST',
    path: '/users/:id/follow',
    summary: 'Follow a user',
    description: 'Idempotent. You cannot follow yourself, nor someone who blocked you or whom you blocked.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(named('FollowState', z.object({ following: z.boolean(), follower_count: z.number().int() }))), ...errors(400, 401, 403, 404) },
  },
  unfollow: {
    method: 'DELETE',
    path: '/users/:id/follow',
    summary: 'Stop following a user',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(named('FollowState', z.object({ following: z.boolean(), follower_count: z.number().int() }))), ...errors(400, 401, 403, 404) },
  },
  followers: {
    method: 'GET',
    path: '/users/:id/followers',
    summary: 'Who follows a user',
    metadata: optionalAuth,
    pathParams: idOrMe,
    query: PaginationQuerySchema,
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403, 404) },
  },
  following: {
    method: 'GET',
    path: '/users/:id/following',
    summary: 'Whom a user follows',
    metadata: optionalAuth,
    pathParams: idOrMe,
    query: PaginationQuerySchema,
    responses: { 200: UserListEnvelope, ...errors(400, 401, 403, 404) },
  },
  block: {
    method: 'POST',
    path: '/users/:id/block',
    summary: 'Block a user',
    description: 'Idempotent. Removes follows both ways; the blocked user can no longer follow you or see your profile.',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(named('BlockState', z.object({ blocked: z.boolean() }))), ...errors(400, 401, 403, 404) },
  },
  unblock: {
    method: 'DELETE',
    path: '/users/:id/block',
    summary: 'Unblock a user',
    metadata: userRoute,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: envelope(named('BlockState', z.object({ blocked: z.boolean() }))), ...errors(400, 401, 403, 404) },
  },
  upgradeCreator: {
    method: 'POST',
    path: '/users/me/upgrade-creator',
    summary: 'Become a creator',
    description: 'Role becomes creator; promoted_to_creator_at is set the first time and never moves after. Idempotent.',
    metadata: userOnlyRoute,
    body: c.noBody(),
    responses: { 200: envelope(named('UserReply', z.object({ user: UserSchema }))), ...errors(400, 401) },
  },
  privacyOptOut: {
    method: 'POST',
    path: '/users/me/privacy/opt-out',
    summary: 'Do not sell my data',
    description: 'Saves the do-not-sell preference. Idempotent.',
    metadata: userOnlyRoute,
    body: c.noBody(),
    responses: { 200: envelope(named('PrivacyOptOut', z.object({ do_not_sell: z.literal(true), opted_out_at: TimestampSchema }))), ...errors(400, 401) },
  },
  getPreferences: {
    method: 'GET',
    path: '/users/me/preferences',
    summary: 'Your preferences',
    metadata: userRoute,
    responses: { 200: envelope(named('PreferencesReply', z.object({ preferences: PreferencesSchema }))), ...errors(401, 403) },
  },
  updatePreferences: {
    method: 'PUT',
    path: '/users/me/preferences',
    summary: 'Change your preferences',
    description: 'Merges the fields sent into the stored preferences.',
    metadata: userRoute,
    body: UpdatePreferencesRequestSchema,
    responses: { 200: envelope(named('PreferencesReply', z.object({ preferences: PreferencesSchema }))), ...errors(400, 401, 403, 413, 415) },
  },
  exportData: {
    method: 'GET',
    path: '/users/me/export',
    summary: 'Export your data',
    description: 'Everything the service holds about you, as one JSON document (sent as an attachment).',
    metadata: userOnlyRoute,
    responses: { 200: UserExportSchema, ...errors(401) },
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/users/me',
    summary: 'Delete your account',
    description:
      'Permanent: the account is anonymized (no email, names or profile text remain; the username is replaced), every session ' +
      'is revoked and an audit entry is written. With keep_public_tracks, public tracks stay attributed to the deleted account.',
    metadata: userOnlyRoute,
    body: DeleteAccountRequestSchema,
    responses: { 200: envelope(MessageSchema), ...errors(400, 401, 413, 415) },
  },
});

const AuditDateQuery = {
  start_date: DateSchema.optional().describe('YYYY-MM-DD, inclusive'),
  end_date: DateSchema.optional().describe('YYYY-MM-DD, inclusive'),
};

export const auditContract = c.router({
  activity: {
    method: 'GET',
    path: '/audit/activity',
    summary: 'Your recent activity',
    metadata: userRoute,
    query: z.object({ limit: queryInt(1, 100).default(50) }),
    responses: { 200: envelope(named('AuditActivity', z.object({ activities: z.array(AuditEntrySchema) }))), ...errors(400, 401, 403) },
  },
  logs: {
    method: 'GET',
    path: '/audit/logs',
    summary: 'Your audit log',
    description: 'Your own entries, newest first (admins see everyone’s). offset, when given, takes precedence over page.',
    metadata: userRoute,
    query: PaginationQuerySchema.extend({
      action: z.string().max(100).optional(),
      resource: z.string().max(100).optional(),
      resource_id: UuidSchema.optional(),
      ip_address: z.string().max(100).optional(),
      user_agent: z.string().max(512).optional(),
      offset: queryInt(0, 1_000_000).optional(),
      ...AuditDateQuery,
    }),
    responses: { 200: envelope(named('AuditLogPage', pageOf('logs', AuditEntrySchema))), ...errors(400, 401, 403) },
  },
  stats: {
    method: 'GET',
    path: '/audit/stats',
    summary: 'Counts of your audit entries',
    metadata: userRoute,
    query: z.object(AuditDateQuery),
    responses: {
      200: envelope(
        named(
          'AuditStatsReply',
          z.object({
            stats: z.object({
              total: z.number().int(),
              by_action: z.record(z.number().int()),
              by_resource: z.record(z.number().int()),
              first_at: TimestampSchema.nullable(),
              last_at: TimestampSchema.nullable(),
            }),
          }),
        ),
      ),
      ...errors(400, 401, 403),
    },
  },
});

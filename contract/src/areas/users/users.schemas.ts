import { ExportedGroupPostSchema } from '../group-posts/group-post-export.schemas.js';
import { z } from 'zod';
import { ApiKeySchema } from '../developer/developer.schemas.js';
import { WebhookSchema } from '../webhooks/webhooks.schemas.js';
import { GearSchema } from '../gear/gear.schemas.js';
import {
  AppPasswordSchema,
  ExportedNowPlayingSchema,
  ExportedSubsonicRatingSchema,
} from '../subsonic/subsonic.schemas.js';
import { DateSchema, TimestampSchema, UserIdOrMeSchema, UuidSchema, pageOf } from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named, withOpenApi } from '../../common/openapi-meta.js';
import {
  NOTIFICATION_TYPES,
  NotificationChannelsSchema,
  type NotificationType,
} from '../notifications/notification-types.js';
import {
  ExportedNotificationSchema,
  NOTIFICATION_RETENTION_DAYS,
} from '../notifications/notification-records.schemas.js';
import { AuditEntrySchema } from '../audit/audit.schemas.js';
import { ReportSchema } from '../moderation/report.schemas.js';
import { CommentSchema } from '../comments/comments.schemas.js';
import { ProductSchema } from '../marketplace/products.schemas.js';
import { OrderSchema } from '../marketplace/orders.schemas.js';
import {
  ExportedPlaylistCollaborationSchema,
  ExportedPlaylistFollowSchema,
  ExportedPlaylistSchema,
} from '../playlists/playlist-account.schemas.js';
import { ExportedChatMessageSchema, ExportedQueueSessionSchema, QueueSchema } from '../queue/queue.schemas.js';
import { LyricsSchema, TrackSchema } from '../tracks/tracks.schemas.js';
import { SanctionSchema } from '../sanctions/sanctions.schemas.js';
import {
  ExportedClaimMadeSchema,
  ExportedClaimReceivedSchema,
  StrikeSchema,
} from '../copyright/copyright-records.schemas.js';
import { AppealSchema } from '../appeals/appeal.schemas.js';
import { ExportedGroupMembershipSchema } from '../groups/group-account.schemas.js';
import { ExportedCourseEnrollmentSchema, ExportedCourseTaughtSchema } from '../courses/course-account.schemas.js';
import { ExportedCloudSchema } from '../cloud/cloud-account.schemas.js';

export const USER_ROLES = ['user', 'creator', 'moderator', 'admin'] as const;
export const GENDERS = ['Male', 'Female', 'Other', 'Prefer not to say'] as const;
export const USER_SORT_FIELDS = ['created_at', 'username', 'email', 'last_login_at'] as const;
export const MESSAGE_AUDIENCES = ['everyone', 'followers', 'nobody'] as const;
export const AUDIO_QUALITIES = ['low', 'normal', 'high', 'lossless'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export type Gender = (typeof GENDERS)[number];
/** Named, so a generated client has one Gender type (and a nullable one refers to it). */
export const GenderSchema = named('Gender', z.enum(GENDERS));
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/**
 * A user as its owner (or an admin) sees it. Secrets (password hash, 2FA secret) never appear.
 * social_links is an object of link name to URL, the shape UpdateProfileRequest takes.
 */
export const UserSchema = named(
  'User',
  z.object({
    id: UuidSchema,
    username: z.string(),
    email: z.string().nullable(),
    slug: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    avatar: z.string().nullable(),
    banner_url: z.string().nullable(),
    bio: z.string().nullable(),
    birthdate: z.string().nullable(),
    gender: GenderSchema.nullable(),
    location: z.string().nullable(),
    social_links: z.record(z.string()),
    role: z.enum(USER_ROLES),
    is_active: z.boolean(),
    is_admin: z.boolean(),
    is_banned: z.boolean(),
    is_public: z.boolean(),
    is_verified: z.boolean(),
    login_count: z.number().int(),
    token_version: z.number().int(),
    last_login_at: TimestampSchema.nullable(),
    username_changed_at: TimestampSchema.nullable(),
    password_changed_at: TimestampSchema.nullable(),
    promoted_to_creator_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type User = z.infer<typeof UserSchema>;

/** Embedded in login and register replies. */
export const UserResponseSchema = named(
  'UserResponse',
  z.object({
    id: UuidSchema,
    username: z.string(),
    email: z.string(),
  }),
);

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
    gender: GenderSchema.nullable().optional(),
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
    .refine(
      (value) => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol),
      'must be an absolute http: or https: URL',
    ),
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
    gender: GenderSchema.nullable().optional(),
    is_public: z.boolean().optional(),
    social_links: SocialLinksSchema.optional(),
  }),
);

export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequestSchema>;

export const DeleteAccountRequestSchema = named(
  'DeleteAccountRequest',
  z.object({
    confirm_text: z.literal('DELETE', { errorMap: () => ({ message: 'must be exactly DELETE' }) }),
    password: z.string().min(1).max(256),
    reason: z.string().max(1000).optional(),
    keep_public_tracks: z
      .boolean()
      .optional()
      .describe('When true, public tracks stay attributed to the deleted account'),
  }),
);

export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;

/** One entry per notification type: where that type is delivered (every type, so none is forgotten). */
const channelsByType = <T extends z.ZodTypeAny>(channels: T) =>
  Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, channels])) as { [K in NotificationType]: T };

export const PreferencesSchema = named(
  'Preferences',
  z.object({
    notifications: z.object({
      email_new_follower: z.boolean(),
      email_comments: z.boolean(),
      email_purchases: z.boolean(),
      email_product_updates: z.boolean(),
      push_enabled: z.boolean(),
      ...channelsByType(NotificationChannelsSchema),
    }),
    privacy: z.object({
      show_activity: z.boolean(),
      show_listening_history: z.boolean(),
      allow_messages_from: z.enum(MESSAGE_AUDIENCES),
      do_not_sell: z.boolean().describe('Set by POST /users/me/privacy/opt-out'),
    }),
    playback: z.object({
      autoplay: z.boolean(),
      crossfade_seconds: z.number().int().min(0).max(12),
      audio_quality: z.enum(AUDIO_QUALITIES),
      normalize_volume: z.boolean(),
    }),
  }),
);
export type Preferences = z.infer<typeof PreferencesSchema>;

/** Every field optional: PUT merges what is sent into the stored preferences. */
export const UpdatePreferencesRequestSchema = named(
  'UpdatePreferencesRequest',
  z.object({
    notifications: z
      .object({
        ...PreferencesSchema.shape.notifications.shape,
        ...channelsByType(NotificationChannelsSchema.partial()),
      })
      .partial()
      .optional(),
    privacy: PreferencesSchema.shape.privacy.omit({ do_not_sell: true }).partial().optional(),
    playback: PreferencesSchema.shape.playback.partial().optional(),
  }),
);

export type UpdatePreferencesRequest = z.infer<typeof UpdatePreferencesRequestSchema>;

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
    copyright_claims_made: z
      .array(ExportedClaimMadeSchema)
      .describe('The copyright claims you filed, with what you stated, newest first'),
    copyright_claims_received: z
      .array(ExportedClaimReceivedSchema)
      .describe('Copyright claims against your tracks, with your counter-notices, newest first'),
    strikes: z.array(StrikeSchema).describe('The copyright strikes of your account, newest first'),
    audit_logs: z.array(AuditEntrySchema),
    likes: z
      .array(z.object({ track_id: UuidSchema, liked_at: TimestampSchema }))
      .describe('Your likes (your favorites playlist)'),
    reposts: z.array(z.object({ track_id: UuidSchema, reposted_at: TimestampSchema })),
    shares: z.array(z.object({ track_id: UuidSchema, platform: z.string(), shared_at: TimestampSchema })),
    listening_history: z.array(
      z.object({ track_id: UuidSchema, played_at: TimestampSchema, duration_listened: z.number(), source: z.string() }),
    ),
    comments: z
      .array(CommentSchema)
      .describe('Your comments and replies on tracks that still exist, deleted ones left out'),
    group_posts: z
      .array(ExportedGroupPostSchema)
      .describe('Your posts and replies in groups, oldest first (a deleted one left out)'),
    queue: QueueSchema.describe('Your play queue'),
    queue_sessions: z.array(ExportedQueueSessionSchema).describe('The shared sessions you host that are still live'),
    queue_chat_messages: z.array(ExportedChatMessageSchema).describe('What you wrote in live sessions’ chats'),
    playlists: z
      .array(ExportedPlaylistSchema)
      .describe('Your playlists (the favorites one included) with their track ids'),
    playlist_collaborations: z
      .array(ExportedPlaylistCollaborationSchema)
      .describe('Playlists of others you collaborate on'),
    playlist_follows: z.array(ExportedPlaylistFollowSchema).describe('Playlists you follow'),
    marketplace_products: z.array(ProductSchema).describe('The products you sell, in every status'),
    reports: z.array(ReportSchema).describe('Your reports and their outcome, newest first'),
    marketplace_orders: z
      .array(OrderSchema)
      .describe('Your orders as a buyer, newest first (kept after an account is deleted, as invoices must be)'),
    marketplace_sales: z
      .array(OrderSchema)
      .describe(
        'Orders with an item of yours, newest first, each with your lines only and their amounts (no payment details, no other seller’s lines)',
      ),
    api_keys: z
      .array(ApiKeySchema)
      .describe('Your developer API keys (their prefixes; the keys themselves are not kept)'),
    webhooks: z.array(WebhookSchema).describe('Your webhooks (their key prefixes; keys and secrets are not exported)'),
    app_passwords: z
      .array(AppPasswordSchema)
      .describe('Your app passwords for Subsonic apps (names and dates; the passwords are not exported)'),
    subsonic_play_queue: z
      .object({ client: z.string(), saved_at: TimestampSchema })
      .nullable()
      .describe('The Subsonic app that last saved your play queue (getPlayQueue names it to your other apps), or null'),
    subsonic_ratings: z
      .array(ExportedSubsonicRatingSchema)
      .describe('Your ratings in Subsonic apps (setRating), oldest first: Riff itself has no ratings'),
    subsonic_now_playing: ExportedNowPlayingSchema.nullable().describe(
      'What your Subsonic app last said it was playing (scrobble without submission), if anything',
    ),
    sanctions: z.array(SanctionSchema).describe('The warnings, suspensions and bans of your account, newest first'),
    appeals: z.array(AppealSchema).describe('Your appeals and their outcome, newest first'),
    groups: z
      .array(ExportedGroupMembershipSchema)
      .describe('The groups you own or belong to, with your role, oldest membership first'),
    notifications: z
      .array(ExportedNotificationSchema)
      .describe(
        `Your notifications, newest first (kept ${NOTIFICATION_RETENTION_DAYS} days; your choices per type are in preferences.notifications)`,
      ),
    gear: z.array(GearSchema).describe('Your gear, private items included, newest first, with the URLs of its photos'),
    courses_taught: z
      .array(ExportedCourseTaughtSchema)
      .describe('The courses you teach, every status, oldest first, with their lessons'),
    course_enrollments: z
      .array(ExportedCourseEnrollmentSchema)
      .describe('The courses you are enrolled in, oldest enrollment first, with your progress and review'),
    cloud: ExportedCloudSchema.describe(
      'Your cloud storage: its folders and files by name, those in the trash with when they went there (names, sizes and folders: the bytes are downloaded from the cloud itself)',
    ),
  }),
);

export type UserExport = z.infer<typeof UserExportSchema>;

export const ProfileEnvelope = envelope(named('ProfileReply', z.object({ profile: ProfileSchema })));
export const UserListEnvelope = envelope(named('UserPage', pageOf('users', ProfileSchema)));
export const UserIdOrMeParamsSchema = z.object({ id: UserIdOrMeSchema });
export const FollowStateEnvelope = envelope(
  named('FollowState', z.object({ following: z.boolean(), follower_count: z.number().int() })),
);
export const BlockStateEnvelope = envelope(named('BlockState', z.object({ blocked: z.boolean() })));
export const PreferencesEnvelope = envelope(named('PreferencesReply', z.object({ preferences: PreferencesSchema })));

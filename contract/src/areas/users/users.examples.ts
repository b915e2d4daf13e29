/** Examples of the users area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { gear } from '../gear/gear.examples.js';
import { profile } from './profile.examples.js';
import { auditEntry } from '../audit/audit.examples.js';
import { comment } from '../comments/comments.examples.js';
import { apiKey } from '../developer/developer.examples.js';
import { appPassword } from '../subsonic/subsonic.examples.js';
import { order, product } from '../marketplace/marketplace.examples.js';
import { OTHER_PLAYLIST_ID, exportedPlaylist } from '../playlists/playlists.examples.js';
import { exportedChat, exportedSession, queue, queueItem } from '../queue/queue.examples.js';
import { OTHER_TRACK_ID, lyrics, otherTrack, track } from '../tracks/tracks.examples.js';
import { claimReceived, strike } from '../copyright/copyright.examples.js';
import { suspension } from '../sanctions/sanctions.examples.js';
import { appeal } from '../appeals/appeals.examples.js';
import { webhook } from '../webhooks/webhooks.examples.js';
import { CREATED, OTHER_USER_ID, TRACK_ID, UPDATED, USER_ID, onePage, password } from '../../common/common.examples.js';
import {
  NOTIFICATION_TYPES,
  type NotificationChannels,
  type NotificationType,
} from '../notifications/notification-types.js';
import type { ExportedNotification } from '../notifications/notification-records.schemas.js';
import type { Preferences, User } from './users.schemas.js';

export const userResponse = { id: USER_ID, username: 'mira.lane', email: 'mira@example.org' };

/** A listener who followed the example user (an id of its own: each id appears once in an example). */
const FOLLOWER_ID = '2f8a6c4e-1b3d-4e5f-9a7c-8d6e4b2a0c1f';

/** Here rather than with the notifications' examples, which name this area's profile. */
export const exportedNotification: ExportedNotification = {
  id: '9d4e2b7a-6c1f-4e8b-a3d5-1f7c9b2e4a6d',
  type: 'follow',
  actor_ids: [FOLLOWER_ID],
  count: 1,
  subject: { type: 'user', id: FOLLOWER_ID, title: 'june.okafor' },
  message: 'june.okafor followed you',
  created_at: UPDATED,
  read_at: null,
  in_app: true,
};

const user: User = {
  ...userResponse,
  slug: 'mira-lane',
  first_name: 'Mira',
  last_name: 'Lane',
  avatar: null,
  banner_url: null,
  bio: 'Producer and synth collector from Leeds.',
  birthdate: '1994-05-17',
  gender: 'Female',
  location: 'Leeds, UK',
  social_links: { bandcamp: 'https://miralane.bandcamp.com' },
  role: 'creator',
  is_active: true,
  is_admin: false,
  is_banned: false,
  is_public: true,
  is_verified: true,
  login_count: 12,
  token_version: 1,
  last_login_at: UPDATED,
  username_changed_at: null,
  password_changed_at: null,
  promoted_to_creator_at: CREATED,
  created_at: CREATED,
  updated_at: UPDATED,
};

const preferences: Preferences = {
  notifications: {
    email_new_follower: true,
    email_comments: true,
    email_purchases: true,
    email_product_updates: false,
    push_enabled: false,
    ...(Object.fromEntries(
      NOTIFICATION_TYPES.map((type) => [type, { in_app: type !== 'repost', email: type === 'sale' }]),
    ) as Record<NotificationType, NotificationChannels>),
  },
  privacy: { show_activity: true, show_listening_history: false, allow_messages_from: 'followers', do_not_sell: false },
  playback: { autoplay: true, crossfade_seconds: 4, audio_quality: 'high', normalize_volume: true },
};

export const USERS_EXAMPLES: Record<string, unknown> = {
  UserResponse: userResponse,
  User: user,
  UserReply: { user },
  Profile: profile,
  Gender: 'Female',
  ProfileReply: { profile },
  UserPage: { users: [profile], pagination: onePage(1) },
  UserSuggestions: { users: [profile] },
  UpdateProfileRequest: {
    bio: 'Producer and synth collector from Leeds.',
    location: 'Leeds, UK',
    social_links: { bandcamp: 'https://miralane.bandcamp.com' },
  },
  DeleteAccountRequest: {
    confirm_text: 'DELETE',
    password,
    reason: 'Moving to another service',
    keep_public_tracks: false,
  },
  ProfileCompletion: {
    percentage: 67,
    completed_fields: ['bio', 'first_name', 'last_name', 'location', 'birthdate', 'social_links'],
    missing_fields: ['avatar', 'banner_url', 'gender'],
  },
  FollowState: { following: true, follower_count: 43 },
  BlockState: { blocked: true },
  PrivacyOptOut: { do_not_sell: true, opted_out_at: UPDATED },
  Preferences: preferences,
  PreferencesReply: { preferences },
  UpdatePreferencesRequest: {
    playback: { crossfade_seconds: 4, audio_quality: 'high' },
    notifications: { sale: { email: true } },
  },
  UserExport: {
    exported_at: UPDATED,
    profile: user,
    preferences,
    following: [{ user_id: OTHER_USER_ID, username: 'theo.marsh', since: CREATED }],
    followers: [],
    blocks: [],
    tracks: [track],
    lyrics: [lyrics],
    copyright_claims_made: [],
    copyright_claims_received: [claimReceived],
    strikes: [strike],
    audit_logs: [auditEntry],
    likes: [{ track_id: TRACK_ID, liked_at: UPDATED }],
    reposts: [],
    shares: [{ track_id: TRACK_ID, platform: 'link', shared_at: UPDATED }],
    listening_history: [{ track_id: TRACK_ID, played_at: UPDATED, duration_listened: 184.5, source: 'track' }],
    comments: [comment],
    // each id once per example (validators of examples read a repeated id as a second schema): the
    // queue holds another artist's track, not one listed above
    queue: { ...queue, items: [{ ...queueItem, track_id: OTHER_TRACK_ID, track: otherTrack }] },
    queue_sessions: [exportedSession],
    queue_chat_messages: [exportedChat],
    playlists: [exportedPlaylist],
    playlist_collaborations: [{ playlist_id: OTHER_PLAYLIST_ID, permission: 'write', since: UPDATED }],
    playlist_follows: [{ playlist_id: OTHER_PLAYLIST_ID, since: UPDATED }],
    marketplace_products: [product],
    reports: [],
    marketplace_orders: [order],
    marketplace_sales: [],
    api_keys: [apiKey],
    webhooks: [webhook],
    app_passwords: [appPassword],
    subsonic_play_queue: { client: 'Symfonium', saved_at: UPDATED },
    subsonic_ratings: [{ item_type: 'song', item_id: TRACK_ID, rating: 4, rated_at: UPDATED }],
    subsonic_now_playing: null,
    sanctions: [suspension],
    appeals: [appeal],
    groups: [],
    group_posts: [],
    notifications: [exportedNotification],
    gear: [gear],
    courses_taught: [],
    course_enrollments: [],
    cloud: { folders: [], files: [] },
  },
  SetAvatarRequest: { file: 'portrait.jpg' },
};

export { profile };

import type { Gender, StreamStatus, TrackFormat, TrackStatus, UserRole } from '@riff/contract';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

// Enum columns take their values from the contract's tuples (the migrations' CHECK constraints list the same values).
export type { TrackFormat, TrackStatus };

/** Timestamps are read as Date and may be written as Date or ISO strings. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<string>;
  email: string | null;
  username: string;
  slug: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  avatar: string | null;
  banner_url: string | null;
  bio: string | null;
  birthdate: string | null;
  gender: Gender | null;
  location: string | null;
  social_links: Json<Record<string, string>>;
  role: Generated<UserRole>;
  is_active: Generated<boolean>;
  is_admin: Generated<boolean>;
  is_banned: Generated<boolean>;
  is_public: Generated<boolean>;
  is_verified: Generated<boolean>;
  login_count: Generated<number>;
  token_version: Generated<number>;
  two_factor_enabled: Generated<boolean>;
  two_factor_secret: string | null;
  two_factor_pending_secret: string | null;
  two_factor_last_step: number | null;
  last_login_at: Timestamp | null;
  username_changed_at: Timestamp | null;
  password_changed_at: Timestamp | null;
  promoted_to_creator_at: Timestamp | null;
  email_verified_at: Timestamp | null;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type EmailTokenPurpose = 'verify_email' | 'password_reset';

export interface EmailTokensTable {
  id: Generated<string>;
  user_id: string;
  purpose: EmailTokenPurpose;
  token_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface RefreshTokensTable {
  id: string;
  family_id: string;
  user_id: string;
  secret_hash: string;
  remember_me: boolean;
  expires_at: Timestamp;
  rotated_at: Timestamp | null;
  revoked_at: Timestamp | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  pending: boolean;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TwoFactorChallengesTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  remember_me: boolean;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuditLogsTable {
  id: Generated<string>;
  user_id: string | null;
  action: string;
  resource: string;
  resource_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  metadata: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: CreatedAt;
}

export interface BlocksTable {
  blocker_id: string;
  blocked_id: string;
  created_at: CreatedAt;
}

export interface UserPreferencesTable {
  user_id: string;
  settings: Json<Record<string, unknown>>;
  do_not_sell_at: Timestamp | null;
  updated_at: UpdatedAt;
}

export interface TracksTable {
  id: string;
  creator_id: string;
  title: string;
  artist: string | null;
  album: string | null;
  genre: string | null;
  genres: Json<string[]>;
  tags: Json<string[]>;
  year: number | null;
  bpm: number | null;
  musical_key: string | null;
  is_public: Generated<boolean>;
  duration: number;
  bitrate: number | null;
  sample_rate: number | null;
  file_size: number;
  format: TrackFormat;
  file_key: string | null;
  md5: string;
  original_filename: string | null;
  status: TrackStatus;
  status_message: string | null;
  stream_status: Generated<StreamStatus>;
  stream_manifest_url: string | null;
  cover_art_path: string | null;
  waveform_path: string | null;
  play_count: Generated<number>;
  like_count: Generated<number>;
  deleted_at: Timestamp | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface TrackLyricsTable {
  track_id: string;
  content: string;
  is_synced: boolean;
  updated_at: UpdatedAt;
}

export interface UploadSessionsTable {
  id: string;
  user_id: string;
  filename: string;
  total_chunks: number;
  total_size: number;
  state: Generated<'active' | 'assembling'>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface UploadChunksTable {
  upload_id: string;
  chunk_number: number;
  size: number;
  created_at: CreatedAt;
}

export interface StorageIntentsTable {
  key: string;
  created_at: CreatedAt;
}

export interface DomainEventsTable {
  id: Generated<string>;
  type: string;
  payload: Json<Record<string, unknown>>;
  actor_id: string | null;
  request_id: string | null;
  created_at: Generated<Date>;
}

export interface Database {
  users: UsersTable;
  email_tokens: EmailTokensTable;
  refresh_tokens: RefreshTokensTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
  audit_logs: AuditLogsTable;
  follows: FollowsTable;
  blocks: BlocksTable;
  user_preferences: UserPreferencesTable;
  tracks: TracksTable;
  track_lyrics: TrackLyricsTable;
  upload_sessions: UploadSessionsTable;
  upload_chunks: UploadChunksTable;
  storage_intents: StorageIntentsTable;
  domain_events: DomainEventsTable;
}

export type TrackRow = Selectable<TracksTable>;

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

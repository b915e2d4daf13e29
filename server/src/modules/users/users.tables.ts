import type { Gender, UserRole } from '@riff/contract';
import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { CreatedAt, Json, Timestamp, UpdatedAt } from '../../platform/db/column-types.js';

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
  /** Suspended since; null when not. */
  suspended_at: Timestamp | null;
  /** When a suspension ends by itself; null with suspended_at for one only an admin lifts. */
  suspended_until: Timestamp | null;
  /** This user's upload quota in bytes, set by an admin; null for the platform's default. */
  quota_bytes: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
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

/** The users area's tables: accounts, follows, blocks and per-user preferences. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    users: UsersTable;
    follows: FollowsTable;
    blocks: BlocksTable;
    user_preferences: UserPreferencesTable;
  }
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;

declare module '../../platform/access/actor.js' {
  /** A signed-in Actor carries the user's whole row. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AccountUser extends UserRow {}
}

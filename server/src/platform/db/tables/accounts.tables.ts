import type { Gender, UserRole } from '@riff/contract';
import type { Generated } from 'kysely';
import type { CreatedAt, Json, Timestamp, UpdatedAt } from './column-types.js';

export type EmailTokenPurpose = 'verify_email' | 'password_reset';

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
  /** The token that replaced this one (sealed), kept for the reuse grace after rotated_at. */
  successor_sealed: Generated<string | null>;
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

/** Accounts and sign-in: the users table, e-mail tokens, refresh tokens, two-factor secrets. */
export interface AccountsTables {
  users: UsersTable;
  email_tokens: EmailTokensTable;
  refresh_tokens: RefreshTokensTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_challenges: TwoFactorChallengesTable;
}

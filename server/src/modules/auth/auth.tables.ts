import type { Generated } from 'kysely';
import type { CreatedAt, Timestamp } from '../../platform/db/column-types.js';

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

/** The auth area's tables: e-mail tokens, refresh tokens and two-factor secrets. */
declare module '../../platform/db/database.schema.js' {
  interface Database {
    email_tokens: EmailTokensTable;
    refresh_tokens: RefreshTokensTable;
    two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
    two_factor_challenges: TwoFactorChallengesTable;
  }
}

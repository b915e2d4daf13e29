import type { CreatedAt, Json, Timestamp, UpdatedAt } from './column-types.js';

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

/** Follows, blocks and per-user preferences. */
export interface SocialTables {
  follows: FollowsTable;
  blocks: BlocksTable;
  user_preferences: UserPreferencesTable;
}

import type { Profile, User } from '@riff/contract';
import type { Actor } from '../../platform/access/actor.js';
import type { UserRow } from './users.tables.js';
import { canSeePrivateFields, showsFollowState } from './users.policy.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** A user as its owner sees it: every public field, no secrets. */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    slug: row.slug,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar: row.avatar,
    banner_url: row.banner_url,
    bio: row.bio,
    birthdate: row.birthdate,
    gender: row.gender,
    location: row.location,
    social_links: row.social_links ?? {},
    role: row.role,
    is_active: row.is_active,
    is_admin: row.is_admin,
    is_banned: row.is_banned,
    is_public: row.is_public,
    is_verified: row.is_verified,
    login_count: row.login_count,
    token_version: row.token_version,
    last_login_at: iso(row.last_login_at),
    username_changed_at: iso(row.username_changed_at),
    password_changed_at: iso(row.password_changed_at),
    promoted_to_creator_at: iso(row.promoted_to_creator_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const toUserResponse = (row: UserRow) => ({ id: row.id, username: row.username, email: row.email ?? '' });

/** What a viewer may see of a user: everything for the owner and admins, little for a private profile. */
export function toProfileDto(
  row: UserRow & { follower_count?: number; following_count?: number; is_following?: boolean | null },
  viewer: Actor,
): Profile {
  const privileged = canSeePrivateFields(viewer, row.id);
  if (!row.is_public && !privileged)
    return { id: row.id, username: row.username, slug: row.slug, avatar: row.avatar, is_public: row.is_public };
  // built field by field (no spreads): this runs on every profile read and list entry
  const profile: Profile = {
    id: row.id,
    username: row.username,
    slug: row.slug,
    avatar: row.avatar,
    is_public: row.is_public,
    first_name: row.first_name,
    last_name: row.last_name,
    bio: row.bio,
    banner_url: row.banner_url,
    location: row.location,
    gender: row.gender,
    social_links: row.social_links ?? {},
    role: row.role,
    is_verified: row.is_verified,
    promoted_to_creator_at: iso(row.promoted_to_creator_at),
    created_at: row.created_at.toISOString(),
  };
  if (row.follower_count !== undefined) {
    profile.follower_count = row.follower_count;
    profile.following_count = row.following_count ?? 0;
  }
  if (row.is_following !== null && row.is_following !== undefined && showsFollowState(viewer, row.id))
    profile.is_following = row.is_following;
  if (privileged) {
    profile.email = row.email;
    profile.birthdate = row.birthdate;
    profile.is_admin = row.is_admin;
    profile.username_changed_at = iso(row.username_changed_at);
  }
  return profile;
}

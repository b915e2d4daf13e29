/**
 * A profile as others see it, apart from users.examples.ts so that areas whose examples the account
 * export names (gear) can show it without a cycle between the example files.
 */
import type { Profile } from './users.schemas.js';
import { CREATED, OTHER_USER_ID } from '../../common/common.examples.js';

export const profile: Profile = {
  id: OTHER_USER_ID,
  username: 'theo.marsh',
  slug: 'theo-marsh',
  avatar: null,
  is_public: true,
  first_name: 'Theo',
  last_name: 'Marsh',
  bio: 'Ambient and field recordings.',
  banner_url: null,
  location: 'Bristol, UK',
  social_links: {},
  role: 'creator',
  is_verified: true,
  promoted_to_creator_at: CREATED,
  follower_count: 42,
  following_count: 7,
  is_following: false,
  created_at: CREATED,
};

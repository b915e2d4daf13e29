import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../common/common.schemas.js';
import { named } from '../common/openapi-meta.js';

export const USER_ROLES = ['user', 'creator', 'moderator', 'admin'] as const;
export const GENDERS = ['Male', 'Female', 'Other', 'Prefer not to say'] as const;

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
    gender: z.enum(GENDERS).nullable(),
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

import { z } from 'zod';
import {
  DateSchema,
  PaginationQuerySchema,
  TimestampSchema,
  UuidSchema,
  pageOf,
  queryInt,
} from '../../common/common.schemas.js';
import { envelope } from '../../common/envelope.schemas.js';
import { named } from '../../common/openapi-meta.js';

/** What a piece of gear is: declared once (the migration's CHECK and the services derive from it). */
export const GEAR_CATEGORIES = [
  'guitar',
  'bass',
  'drums',
  'keys',
  'synth',
  'drum_machine',
  'sampler',
  'microphone',
  'interface',
  'mixer',
  'monitor',
  'headphones',
  'amplifier',
  'effect',
  'controller',
  'daw',
  'plugin',
  'computer',
  'accessory',
  'other',
] as const;
export type GearCategory = (typeof GEAR_CATEGORIES)[number];

/** At most this many items per user; the next creation is 400 LIMIT_REACHED. */
export const GEAR_PER_USER_MAX = 500;
/** At most this many photos per item. */
export const GEAR_PHOTOS_MAX = 8;
/** A photo upload is at most 10 MiB (413 beyond). */
export const GEAR_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** A photo is stored fitted inside these squares (never enlarged): the photo and its thumbnail. */
export const GEAR_PHOTO_SIZES = [1600, 320] as const;
export type GearPhotoSize = (typeof GEAR_PHOTO_SIZES)[number];
/** A track names at most this many items. */
export const TRACK_GEAR_MAX = 30;
/** GET /gear/popular answers at most this many models. */
export const GEAR_POPULAR_MAX = 100;

const text = (max: number, what: string) =>
  z.string().trim().min(1).max(max).describe(`${what}, 1 to ${max} characters, trimmed`);

export const GearPhotoSchema = named(
  'GearPhoto',
  z.object({
    id: UuidSchema,
    url: z.string().describe('Absolute URL of the photo (fitted inside 1600×1600)'),
    thumbnail_url: z.string().describe('Absolute URL of the thumbnail (fitted inside 320×320)'),
  }),
);
export type GearPhoto = z.infer<typeof GearPhotoSchema>;

export const GearSchema = named(
  'Gear',
  z.object({
    id: UuidSchema,
    user_id: UuidSchema,
    category: z.enum(GEAR_CATEGORIES),
    brand: z.string(),
    model: z.string(),
    nickname: z.string().nullable(),
    year: z.number().int().nullable(),
    notes: z.string().nullable(),
    acquired_at: z.string().nullable().describe('A date, YYYY-MM-DD'),
    is_public: z.boolean(),
    photos: z.array(GearPhotoSchema).describe('Oldest first'),
    track_count: z.number().int().min(0).describe('Live tracks of its owner that name it'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
);
export type Gear = z.infer<typeof GearSchema>;

export const CreateGearRequestSchema = named(
  'CreateGearRequest',
  z.object({
    category: z.enum(GEAR_CATEGORIES),
    brand: text(100, 'The maker'),
    model: text(100, 'The model'),
    nickname: z.string().trim().max(100).nullable().optional(),
    year: z.number().int().min(1900).max(2100).nullable().optional(),
    notes: z.string().max(2000).nullable().optional(),
    acquired_at: DateSchema.nullable().optional(),
    is_public: z.boolean().optional().describe('Default true'),
  }),
);
export type CreateGearRequest = z.infer<typeof CreateGearRequestSchema>;

export const UpdateGearRequestSchema = named(
  'UpdateGearRequest',
  z.object({
    category: z.enum(GEAR_CATEGORIES).optional(),
    brand: text(100, 'The maker').optional(),
    model: text(100, 'The model').optional(),
    nickname: z.string().trim().max(100).nullable().optional(),
    year: z.number().int().min(1900).max(2100).nullable().optional(),
    notes: z.string().max(2000).nullable().optional(),
    acquired_at: DateSchema.nullable().optional(),
    is_public: z.boolean().optional(),
  }),
);
export type UpdateGearRequest = z.infer<typeof UpdateGearRequestSchema>;

export const SetTrackGearRequestSchema = named(
  'SetTrackGearRequest',
  z.object({
    gear_ids: z
      .array(UuidSchema)
      .max(1000)
      .describe(`Your items, at most ${TRACK_GEAR_MAX} (more: 400 LIMIT_REACHED); replaces the track's set`),
  }),
);
export type SetTrackGearRequest = z.infer<typeof SetTrackGearRequestSchema>;

export const GearPhotoParamsSchema = z.object({ id: UuidSchema, photoId: UuidSchema });
export const GearPhotoQuerySchema = z.object({
  size: z
    .enum(['1600', '320'])
    .default('1600')
    .transform((size) => Number(size) as GearPhotoSize),
});

const categoryFilter = z.enum(GEAR_CATEGORIES).optional();

export const UserGearQuerySchema = PaginationQuerySchema.extend({ category: categoryFilter });
export type UserGearQuery = z.infer<typeof UserGearQuerySchema>;

export const GearSearchQuerySchema = PaginationQuerySchema.extend({
  q: z.string().trim().min(1).max(200).describe('Words of the brand, model or nickname; typos tolerated'),
  category: categoryFilter,
});
export type GearSearchQuery = z.infer<typeof GearSearchQuerySchema>;

export const GearPopularQuerySchema = z.object({
  category: categoryFilter,
  limit: queryInt(1, GEAR_POPULAR_MAX).default(20).describe(`At most ${GEAR_POPULAR_MAX}`),
});
export type GearPopularQuery = z.infer<typeof GearPopularQuerySchema>;

export const GearOwnersQuerySchema = PaginationQuerySchema.extend({
  brand: z.string().trim().min(1).max(100),
  model: z.string().trim().min(1).max(100),
});
export type GearOwnersQuery = z.infer<typeof GearOwnersQuerySchema>;

export const PopularGearSchema = named(
  'PopularGear',
  z.object({
    brand: z.string().describe('As its first owner wrote it'),
    model: z.string(),
    category: z.enum(GEAR_CATEGORIES).describe('As its first owner filed it'),
    owners: z.number().int().min(1),
  }),
);
export type PopularGear = z.infer<typeof PopularGearSchema>;

export const GearEnvelope = envelope(named('GearReply', z.object({ gear: GearSchema })));
export const GearPageEnvelope = envelope(named('GearPage', pageOf('gear', GearSchema)));
export const TrackGearEnvelope = envelope(named('TrackGear', z.object({ gear: z.array(GearSchema) })));
export const PopularGearEnvelope = envelope(named('PopularGearList', z.object({ items: z.array(PopularGearSchema) })));

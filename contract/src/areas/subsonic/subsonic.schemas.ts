import { z } from 'zod';
import { TimestampSchema, UuidSchema } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';

/** App passwords a user may hold at once: the next is 400 LIMIT_REACHED. */
export const APP_PASSWORDS_PER_USER_MAX = 10;
/** Letters and digits of a new app password: short enough to type into a phone, 143 bits of chance. */
export const APP_PASSWORD_LENGTH = 24;

export const AppPasswordSchema = named(
  'AppPassword',
  z.object({
    id: UuidSchema,
    name: z.string(),
    created_at: TimestampSchema,
    last_used_at: TimestampSchema.nullable().describe(
      'When the password last signed a Subsonic app in (updated at most once a minute)',
    ),
  }),
);
export type AppPassword = z.infer<typeof AppPasswordSchema>;

export const CreateAppPasswordRequestSchema = named(
  'CreateAppPasswordRequest',
  z.object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .describe('1–100 characters, to recognise the app by (e.g. "Symfonium on my phone")'),
  }),
);
export type CreateAppPasswordRequest = z.infer<typeof CreateAppPasswordRequestSchema>;

export const CreatedAppPasswordSchema = named(
  'CreatedAppPassword',
  z.object({
    app_password: AppPasswordSchema,
    password: z
      .string()
      .describe(
        `The password, ${APP_PASSWORD_LENGTH} letters and digits, for a Subsonic app with your username. It is shown only here: enter it now`,
      ),
  }),
);
export type CreatedAppPassword = z.infer<typeof CreatedAppPasswordSchema>;

export const AppPasswordListSchema = named('AppPasswordList', z.object({ app_passwords: z.array(AppPasswordSchema) }));

/** What a Subsonic rating (setRating) is about: a song (a track), an album, or an artist (a creator). */
export const SUBSONIC_RATED_ITEM_TYPES = ['song', 'album', 'artist'] as const;
export type SubsonicRatedItemType = (typeof SUBSONIC_RATED_ITEM_TYPES)[number];

export const ExportedSubsonicRatingSchema = named(
  'ExportedSubsonicRating',
  z.object({
    item_type: z.enum(SUBSONIC_RATED_ITEM_TYPES),
    item_id: UuidSchema.describe("The track's, the creator's, or the album's id as Subsonic apps know it (a UUID v5)"),
    rating: z.number().int().min(1).max(5),
    rated_at: TimestampSchema,
  }),
);

export const ExportedNowPlayingSchema = named(
  'ExportedNowPlaying',
  z.object({
    track_id: UuidSchema,
    client: z.string().describe('The Subsonic app that said so'),
    started_at: TimestampSchema,
  }),
);

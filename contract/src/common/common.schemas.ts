import { z } from 'zod';
import { named, withOpenApi } from './openapi-meta.js';

/** Identifiers are UUID strings; a malformed one in a path is 400 INVALID_ID before any lookup. */
export const UuidSchema = z.string().uuid();

/** RFC 3339 in UTC with milliseconds, e.g. 2026-11-21T10:00:00.000Z (the OpenAPI example is added on generation). */
export const TimestampSchema = z.string().datetime({ precision: 3 });

/** A share token in a path (base64url). Unknown ones are 404 by their routes: nothing is said about a token's shape beyond this. */
/**
 * A moment a client sends (RFC 3339 with any offset). Stored as UTC, so it must fall before the
 * year 10000 there: 9999-12-31T23:59-03:00 is already 10000 in UTC.
 */
export const ClientTimestampSchema = z
  .string()
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) < Date.UTC(10_000, 0, 1), 'must be before the year 10000 (UTC)');

export const ShareTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be a share token (letters, digits, - and _)');

/** A path parameter holding a UUID; a malformed one is 400 INVALID_ID before any lookup. */
export const IdParamsSchema = z.object({ id: UuidSchema });

export const MessageSchema = named('Message', z.object({ message: z.string() }));

export const PaginationSchema = named(
  'Pagination',
  z.object({
    page: z.number().int().min(1),
    limit: z.number().int().min(1).max(100),
    total: z.number().int().min(0),
    total_pages: z.number().int().min(0),
  }),
);

/**
 * Integers sent as text (query, multipart) are coerced; anything that is not a whole number in range
 * is 400. Coercion turns null into 0, which the generator would document as `nullable`: a number
 * that is sent is never null.
 */
export const coercedInt = <T extends z.ZodTypeAny>(schema: T): T => withOpenApi(schema, { nullable: undefined });

/** Query integers arrive as strings and are coerced; anything that is not a whole number in range is 400. */
export const queryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Query booleans: `true` or `false` (the typed client may pass a boolean). */
export const queryBoolean = () =>
  withOpenApi(
    z.union([z.boolean(), z.enum(['true', 'false'])]).transform((value) => value === true || value === 'true'),
    { type: 'boolean', oneOf: undefined },
  );

/** Sort directions of list queries. */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

export const PaginationQuerySchema = z.object({
  page: queryInt(1, 1_000_000).default(1).describe('Page number, from 1'),
  limit: queryInt(1, 100).default(20).describe('Items per page, at most 100'),
});
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** The text of a UUID (any version, either case), as zod's uuid() accepts it, for patterns that allow more. */
const UUID_PATTERN = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * A user id in a path, or the word `me` for the caller (the id first: a union that fails a branch
 * pays for an issue). Documented as a string with the pattern of both, so generated clients and
 * mocks know what fits.
 */
export const UserIdOrMeSchema = withOpenApi(z.union([UuidSchema, z.literal('me')]), {
  type: 'string',
  oneOf: undefined,
  pattern: `^(?:${UUID_PATTERN}|me)$`,
  description: 'A user id (UUID) or the word me',
});

/** A calendar date, YYYY-MM-DD, that exists. */
export const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00.000Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'must be a real calendar date');

/** Turns `{ users, pagination }` style replies into one schema shape. */
export const pageOf = <K extends string, T extends z.ZodTypeAny>(key: K, item: T) =>
  z.object({ [key]: z.array(item), pagination: PaginationSchema } as { [P in K]: z.ZodArray<T> } & {
    pagination: typeof PaginationSchema;
  });

/** Characters as a reader counts them: an emoji is one, not two UTF-16 units. */
const characters = (value: string) => [...value].length;

/**
 * What a user writes for others to read (a comment, a post): plain text, trimmed, 1 to `max`
 * characters after trimming, not blank.
 */
export const plainTextSchema = (max: number) =>
  withOpenApi(
    z
      .string()
      .trim()
      .refine((value) => value.length > 0, 'must not be blank')
      .refine((value) => characters(value) <= max, `must be at most ${max} characters`),
    {
      minLength: 1,
      maxLength: max,
      description: `Plain text (clients render it as text, never as HTML), trimmed, 1–${max} characters after trimming, not blank`,
    },
  );

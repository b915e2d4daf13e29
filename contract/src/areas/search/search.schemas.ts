import { z } from 'zod';
import { PaginationQuerySchema, queryInt } from '../../common/common.schemas.js';
import { named } from '../../common/openapi-meta.js';
import { ProductSchema } from '../marketplace/products.schemas.js';
import { PlaylistSchema } from '../playlists/playlists.schemas.js';
import { TrackSchema } from '../tracks/tracks.schemas.js';
import { ProfileSchema } from '../users/users.schemas.js';

/** What GET /search looks through, in the order of its reply. */
export const SEARCH_TYPES = ['tracks', 'users', 'playlists', 'products'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** What a suggestion names. */
export const SUGGESTION_TYPES = ['track', 'artist', 'user', 'playlist'] as const;
export type SuggestionType = (typeof SUGGESTION_TYPES)[number];

export const SEARCH_QUERY_MAX = 200;
export const SUGGESTIONS_MAX = 10;

/** A search's words (the engine: accents and case ignored, typos tolerated, quotes, `or` and `-word` as in websearch_to_tsquery). */
export const SearchTextSchema = z.string().trim().min(1).max(SEARCH_QUERY_MAX);

const oneType = `(?:${SEARCH_TYPES.join('|')})`;
const searchTypes = z
  .string()
  .max(100)
  .regex(new RegExp(`^${oneType}(?:,${oneType})*$`), `must be a comma-separated list of ${SEARCH_TYPES.join(', ')}`);

/** The types a `type` value names (the contract has checked it). */
export const searchTypesOf = (value: string | undefined): SearchType[] =>
  (value ? [...new Set(value.split(','))] : [...SEARCH_TYPES]) as SearchType[];

export const SearchQuerySchema = PaginationQuerySchema.extend({
  q: SearchTextSchema.describe('The words to find'),
  type: searchTypes
    .optional()
    .describe(
      `Comma-separated, among ${SEARCH_TYPES.join(', ')} (default all); the others come back empty with total 0`,
    ),
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

export const SearchResponseSchema = named(
  'SearchResponse',
  z.object({
    query: z.string().describe('q as searched (spaces collapsed)'),
    results: z.object({
      tracks: z.array(TrackSchema),
      users: z.array(ProfileSchema),
      playlists: z.array(PlaylistSchema),
      products: z.array(ProductSchema),
    }),
    totals: z.object({
      tracks: z.number().int(),
      users: z.number().int(),
      playlists: z.number().int(),
      products: z.number().int(),
    }),
  }),
);
export type SearchResponse = z.infer<typeof SearchResponseSchema>;

export const SuggestionsQuerySchema = z.object({
  q: z.string().trim().min(1).max(100).describe('What was typed so far: suggestions start with it'),
  limit: queryInt(1, SUGGESTIONS_MAX).default(SUGGESTIONS_MAX),
});
export type SuggestionsQuery = z.infer<typeof SuggestionsQuerySchema>;

export const SuggestionSchema = named(
  'Suggestion',
  z.object({
    type: z.enum(SUGGESTION_TYPES),
    id: z.string().uuid().describe('The track, user or playlist; for an artist, a public track of theirs'),
    text: z.string(),
  }),
);
export type Suggestion = z.infer<typeof SuggestionSchema>;
export const SuggestionsResponseSchema = named(
  'SuggestionsResponse',
  z.object({ suggestions: z.array(SuggestionSchema) }),
);

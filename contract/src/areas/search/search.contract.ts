import { initContract } from '@ts-rest/core';
import { envelope, errors } from '../../common/envelope.schemas.js';
import { optionalAuth } from '../../common/route-meta.js';
import {
  SearchQuerySchema,
  SearchResponseSchema,
  SuggestionsQuerySchema,
  SuggestionsResponseSchema,
} from './search.schemas.js';

const c = initContract();

/** One engine over tracks, users, playlists and products. */
export const searchContract = c.router({
  search: {
    method: 'GET',
    path: '/search',
    summary: 'Search everything',
    description:
      'Tracks, users, playlists and products the caller may see, each list ranked by relevance (a name equal to q, starting with it, ' +
      'holding it, holding every word, then matches in other fields, then typos: "metalica" finds Metallica). Accents and case are ' +
      'ignored; quotes, `or` and `-word` work as in web search. Private content of others and users blocked either way never appear. ' +
      'page and limit apply to each list; totals count every match.',
    metadata: optionalAuth,
    query: SearchQuerySchema,
    responses: { 200: envelope(SearchResponseSchema), ...errors(400, 401, 403) },
  },
  suggestions: {
    method: 'GET',
    path: '/search/suggestions',
    summary: 'Suggestions as you type',
    description:
      'Public track titles, artists, usernames and public playlist titles that start with q (accents and case ignored), ' +
      'the shortest first; each kind read from an index, so it is fast enough for every keystroke.',
    metadata: optionalAuth,
    query: SuggestionsQuerySchema,
    responses: { 200: envelope(SuggestionsResponseSchema), ...errors(400, 401, 403) },
  },
});

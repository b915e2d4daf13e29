/** Examples of the search area's named schemas, written as the JSON on the wire (see common/common.examples.ts). */
import { product } from '../marketplace/marketplace.examples.js';
import { PLAYLIST_ID, playlistSummary } from '../playlists/playlists.examples.js';
import { track } from '../tracks/tracks.examples.js';
import { profile } from '../users/users.examples.js';
import { TRACK_ID } from '../../common/common.examples.js';

export const SEARCH_EXAMPLES: Record<string, unknown> = {
  SearchResponse: {
    query: 'night drive',
    results: { tracks: [track], users: [profile], playlists: [playlistSummary], products: [product] },
    totals: { tracks: 14, users: 1, playlists: 3, products: 2 },
  },
  Suggestion: { type: 'track', id: TRACK_ID, text: 'Night Drive' },
  SuggestionsResponse: {
    suggestions: [
      { type: 'track', id: TRACK_ID, text: 'Night Drive' },
      { type: 'playlist', id: PLAYLIST_ID, text: 'Night drives, slow' },
    ],
  },
};

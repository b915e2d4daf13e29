import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import type { SubsonicCatalogue } from '../subsonic-catalogue.js';

/** A kind's page: `<kind>Count` (default 20, at most 500; 0 leaves the kind out) and `<kind>Offset`. */
const pageOf = (params: SubsonicParams, kind: 'artist' | 'album' | 'song') => ({
  limit: params.int(`${kind}Count`, 20, { min: 0, max: 500 }),
  offset: params.int(`${kind}Offset`, 0, { min: 0, max: 1_000_000 }),
});

/**
 * Searching: search3 (the ID3 one; search and search2 are not served). Some apps send the empty query
 * as `""` to list everything: the quotes are dropped.
 */
export function searchingMethods(catalogue: SubsonicCatalogue): SubsonicMethod[] {
  return [
    method({
      name: 'search3',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const raw = (params.get('query') ?? '').trim();
        const query = raw === '""' ? '' : raw;
        if (query.length > 200) return { searchResult3: {} };
        const pages = {
          artists: pageOf(params, 'artist'),
          albums: pageOf(params, 'album'),
          songs: pageOf(params, 'song'),
        };
        return { searchResult3: await catalogue.search(actor, query, pages) };
      },
    }),
  ];
}

import { invalidParameter, missingParameter } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import type { UserActor } from '../../../platform/access/actor.js';
import type { AlbumOrder, Window } from '../subsonic-albums.repository.js';
import type { SubsonicCatalogue } from '../subsonic-catalogue.js';

const TYPES = [
  'newest',
  'alphabeticalByName',
  'alphabeticalByArtist',
  'random',
  'starred',
  'frequent',
  'recent',
  'byGenre',
  'byYear',
] as const;
type ListType = (typeof TYPES)[number];
const isListType = (value: string): value is ListType => (TYPES as readonly string[]).includes(value);

/** The order of a type read as an index range (the others: random, and what the caller liked or played). */
function orderOf(type: ListType, params: SubsonicParams): AlbumOrder | undefined {
  switch (type) {
    case 'newest':
      return { by: 'newest' };
    case 'alphabeticalByName':
      return { by: 'name' };
    case 'alphabeticalByArtist':
      return { by: 'artist' };
    case 'byGenre': {
      const genre = params.get('genre')?.trim();
      if (genre === undefined || genre === '') throw missingParameter('genre');
      return { by: 'genre', genre };
    }
    case 'byYear': {
      if (!params.has('fromYear')) throw missingParameter('fromYear');
      if (!params.has('toYear')) throw missingParameter('toYear');
      return {
        by: 'year',
        from: params.int('fromYear', 0, { min: 0, max: 9999 }),
        to: params.int('toYear', 0, { min: 0, max: 9999 }),
      };
    }
    default:
      return undefined;
  }
}

/**
 * The albums of one getAlbumList2 type, a page of them. newest: latest first; alphabeticalByName and
 * alphabeticalByArtist: by name without case or accents (artist, then album); byGenre: the album's
 * genre (its tracks' first by name) in any case, by name; byYear: from fromYear to toYear, backwards
 * when fromYear is the later; random: `size` albums drawn anew each call (offset means nothing);
 * starred: albums holding a song the caller liked (Riff likes songs), most recently liked first;
 * frequent and recent: albums of the songs the caller played (their counted plays), most played or
 * last played first.
 */
function listed(
  catalogue: SubsonicCatalogue,
  actor: UserActor,
  type: ListType,
  params: SubsonicParams,
  window: Window,
) {
  const order = orderOf(type, params);
  if (order) return catalogue.albumPage(actor, order, window);
  switch (type) {
    case 'random':
      return catalogue.randomAlbums(actor, window.limit);
    case 'starred':
      return catalogue.albumsActedOn(actor, 'liked', window);
    default:
      return catalogue.albumsActedOn(actor, type === 'frequent' ? 'frequent' : 'recent', window);
  }
}

/** Album and song lists: getAlbumList2 (the ID3 one; the folder-based getAlbumList is not served). */
export function listMethods(catalogue: SubsonicCatalogue): SubsonicMethod[] {
  return [
    method({
      name: 'getAlbumList2',
      needs: 'read',
      handle: async ({ actor, params }) => {
        // read before the catalogue, so that a bad value costs no query
        const limit = params.int('size', 10, { min: 1, max: 500 });
        const offset = params.int('offset', 0, { min: 0, max: 1_000_000 });
        const type = params.required('type');
        if (!isListType(type)) throw invalidParameter('type', `one of ${TYPES.join(', ')}`);
        const albums = await listed(catalogue, actor, type, params, { limit, offset });
        return { albumList2: { album: albums.map((album) => catalogue.albumNode(album)) } };
      },
    }),
  ];
}

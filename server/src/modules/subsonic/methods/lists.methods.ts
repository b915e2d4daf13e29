import { invalidParameter, missingParameter } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import { sortName, type CatalogueAlbum, type SubsonicCatalogue } from '../subsonic-catalogue.js';

const byText = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });

/** Fisher–Yates on a copy: every order equally likely. */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/**
 * The albums of one getAlbumList2 type, in its order. `starred` lists the albums holding a song the
 * caller liked (Riff likes tracks), most recently liked first; byGenre compares the album's genre (its
 * tracks' first, in any case); byYear runs from fromYear to toYear, backwards when fromYear is the
 * later. frequent and recent need the caller's plays, which a later step brings: error 0 until then.
 */
function ordered(albums: readonly CatalogueAlbum[], params: SubsonicParams): CatalogueAlbum[] {
  const type = params.required('type');
  const created = (album: CatalogueAlbum) => album.row.created.getTime();
  switch (type) {
    case 'newest':
      return [...albums].sort((a, b) => created(b) - created(a));
    case 'alphabeticalByName':
      return [...albums].sort((a, b) => byText(a.row.name, b.row.name));
    case 'alphabeticalByArtist':
      return [...albums].sort(
        (a, b) => byText(sortName(a.artist), sortName(b.artist)) || byText(a.row.name, b.row.name),
      );
    case 'random':
      return shuffled(albums);
    case 'starred':
      return albums
        .filter((album) => album.row.liked_at !== null)
        .sort((a, b) => b.row.liked_at!.getTime() - a.row.liked_at!.getTime());
    case 'byGenre': {
      const genre = params.get('genre');
      if (genre === undefined || genre === '') throw missingParameter('genre');
      return albums
        .filter((album) => album.row.genre !== null && byText(album.row.genre, genre.trim()) === 0)
        .sort((a, b) => byText(a.row.name, b.row.name));
    }
    case 'byYear': {
      if (!params.has('fromYear')) throw missingParameter('fromYear');
      if (!params.has('toYear')) throw missingParameter('toYear');
      const from = params.int('fromYear', 0, { min: 0, max: 9999 });
      const to = params.int('toYear', 0, { min: 0, max: 9999 });
      const [low, high] = from <= to ? [from, to] : [to, from];
      return albums
        .filter((album) => album.row.year !== null && album.row.year >= low && album.row.year <= high)
        .sort((a, b) => (from <= to ? a.row.year! - b.row.year! : b.row.year! - a.row.year!));
    }
    default:
      throw invalidParameter(
        'type',
        'one of newest, alphabeticalByName, alphabeticalByArtist, random, starred, byGenre, byYear',
      );
  }
}

/** Album and song lists: getAlbumList2 (the ID3 one; the folder-based getAlbumList is not served). */
export function listMethods(catalogue: SubsonicCatalogue): SubsonicMethod[] {
  return [
    method({
      name: 'getAlbumList2',
      needs: 'read',
      handle: async ({ actor, params }) => {
        // read before the catalogue, so that a bad size or offset costs no query
        const size = params.int('size', 10, { min: 1, max: 500 });
        const offset = params.int('offset', 0, { min: 0 });
        params.required('type');
        const albums = ordered(await catalogue.albums(actor), params);
        return {
          albumList2: { album: albums.slice(offset, offset + size).map((album) => catalogue.albumNode(album)) },
        };
      },
    }),
  ];
}

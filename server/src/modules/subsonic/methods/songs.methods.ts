import { AppError } from '../../../platform/errors/app-error.js';
import type { ProfilesService } from '../../users/profiles.service.js';
import { isUuid } from '../album-ids.js';
import { notFoundError } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import { songsLikeArtist, type SimilarDeps } from '../similar-songs.js';
import { asListener } from './media.methods.js';

/** The most songs one list answers (Subsonic's maximum for getRandomSongs and getSongsByGenre). */
export const SONG_LIST_MAX = 500;

export interface SongMethodsDeps extends SimilarDeps {
  /** The users area's profiles: an artist named by username (getTopSongs), as the caller may see them. */
  profiles: Pick<ProfilesService, 'getByUsername'>;
}

/** A count: absent gives `fallback`; more than SONG_LIST_MAX is brought down to it (apps ask for more); not a number, error 0. */
const countOf = (params: SubsonicParams, name: string, fallback: number) =>
  Math.min(SONG_LIST_MAX, params.int(name, fallback, { min: 0 }));

/** An optional year; not one, error 0. */
const yearOf = (params: SubsonicParams, name: string) =>
  params.has(name) && params.get(name) !== '' ? params.int(name, 0, { min: 0, max: 9999 }) : undefined;

/**
 * Song lists: getRandomSongs, getSongsByGenre, getTopSongs and getSimilarSongs2, over the caller's
 * library (only songs they may play; the catalogue repository's filters pick and order them).
 * `musicFolderId` is accepted and ignored: there is one folder.
 */
export function songMethods(deps: SongMethodsDeps): SubsonicMethod[] {
  const { catalogue } = deps;
  return [
    method({
      name: 'getRandomSongs',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const size = countOf(params, 'size', 10);
        const genre = params.get('genre')?.trim() || undefined;
        const from = yearOf(params, 'fromYear');
        const to = yearOf(params, 'toYear');
        // a range written backwards is the same range
        const years = from !== undefined && to !== undefined && from > to ? { from: to, to: from } : { from, to };
        if (size === 0) return { randomSongs: {} };
        const song = await catalogue.songs(actor, {
          order: 'random',
          ...(genre !== undefined ? { genre } : {}),
          years,
          page: { limit: size, offset: 0 },
        });
        return { randomSongs: { song } };
      },
    }),
    method({
      name: 'getSongsByGenre',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const genre = params.required('genre');
        const count = countOf(params, 'count', 10);
        const offset = params.int('offset', 0, { min: 0, max: 1_000_000 });
        if (count === 0) return { songsByGenre: {} };
        const song = await catalogue.songs(actor, { genre, page: { limit: count, offset } });
        return { songsByGenre: { song } };
      },
    }),
    // the artist's songs of the library, most played first (Riff's own play counts, not last.fm's);
    // an artist the caller cannot see, or nobody of that name, has none
    method({
      name: 'getTopSongs',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const name = params.required('artist');
        const count = countOf(params, 'count', 50);
        let artistId: string;
        try {
          artistId = (await deps.profiles.getByUsername(asListener(actor), name)).profile.id;
        } catch (error) {
          if (error instanceof AppError && error.status === 404) return { topSongs: {} };
          throw error;
        }
        if (count === 0) return { topSongs: {} };
        const song = await catalogue.songs(actor, {
          creatorId: artistId,
          order: 'plays',
          page: { limit: count, offset: 0 },
        });
        return { topSongs: { song } };
      },
    }),
    // songs like the artist's (similar-songs.ts), then the artist's own most played, up to `count`
    method({
      name: 'getSimilarSongs2',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const id = params.required('id');
        const count = countOf(params, 'count', 50);
        if (!isUuid(id) || (await catalogue.artistsAmong(actor, [id])).length === 0) throw notFoundError('Artist');
        const { similar } = await songsLikeArtist(deps, actor, id);
        let rows = similar.slice(0, count);
        if (rows.length < count) {
          const listed = new Set(rows.map((row) => row.id));
          const own = await catalogue.trackRows(actor, {
            creatorId: id,
            order: 'plays',
            page: { limit: count, offset: 0 },
          });
          rows = [...rows, ...own.filter((row) => !listed.has(row.id))].slice(0, count);
        }
        return { similarSongs2: { song: await catalogue.songNodes(actor, rows) } };
      },
    }),
  ];
}

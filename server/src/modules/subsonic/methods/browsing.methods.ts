import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicNode } from '../rest-serializer.js';
import { byIndex, IGNORED_ARTICLES, type SubsonicCatalogue } from '../subsonic-catalogue.js';

/** Riff's whole catalogue is one library: the one music folder apps show (its id is an int in the XSD). */
export const MUSIC_FOLDER = { id: 1, name: 'Riff' } as const;

const ignoredArticles = IGNORED_ARTICLES.join(' ');

/** The caller's ratings (setRating) of these albums or artists, by id. */
export type RatingsOf = (userId: string, ids: readonly string[]) => Promise<Map<string, number>>;

/**
 * Browsing: getMusicFolders, getIndexes, getArtists, getArtist, getAlbum, getSong, getMusicDirectory
 * and getGenres, over the caller's library (subsonic-catalogue.ts). `musicFolderId` is accepted and
 * ignored: there is one folder. Albums and artists carry the caller's rating (`userRating`) where the
 * XSD has it: getAlbum's album, getMusicDirectory's directory and its album entries (songs carry
 * theirs everywhere).
 */
export function browsingMethods(catalogue: SubsonicCatalogue, ratings: RatingsOf): SubsonicMethod[] {
  return [
    method({
      name: 'getMusicFolders',
      needs: 'read',
      handle: async () => ({ musicFolders: { musicFolder: [{ ...MUSIC_FOLDER }] } }),
    }),
    method({
      name: 'getArtists',
      needs: 'read',
      handle: async ({ actor }) => {
        const artists = (await catalogue.artists(actor)).map((artist) => ({ ...artist }));
        return {
          artists: {
            ignoredArticles,
            index: byIndex(artists).map((group) => ({
              name: group.name,
              artist: group.artist.map((artist) => catalogue.artistNode(artist)),
            })),
          },
        };
      },
    }),
    // the folder-based index of Subsonic 1.x: the same artists, as directories getMusicDirectory opens
    method({
      name: 'getIndexes',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const lastModified = await catalogue.lastModified(actor);
        const since = params.int('ifModifiedSince', -1);
        // unchanged since the app's copy: the reply says so and lists nothing
        if (since >= lastModified) return { indexes: { lastModified, ignoredArticles } };
        const artists = await catalogue.artists(actor);
        return {
          indexes: {
            lastModified,
            ignoredArticles,
            index: byIndex(artists).map((group) => ({
              name: group.name,
              artist: group.artist.map((artist) => ({ id: artist.id, name: artist.name })),
            })),
          },
        };
      },
    }),
    method({
      name: 'getArtist',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const { artist, albums } = await catalogue.artist(actor, params.required('id'));
        return {
          artist: { ...catalogue.artistNode(artist), album: albums.map((album) => catalogue.albumNode(album)) },
        };
      },
    }),
    method({
      name: 'getAlbum',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const { album, songs } = await catalogue.albumWithSongs(actor, params.required('id'));
        const userRating = (await ratings(actor.id, [album.id])).get(album.id);
        return {
          album: {
            ...catalogue.albumNode(album),
            userRating,
            song: songs.map((song, index) =>
              catalogue.songNode(actor, song, { artist: album.artist, album, track: index + 1 }),
            ),
          },
        };
      },
    }),
    method({
      name: 'getSong',
      needs: 'read',
      handle: async ({ actor, params }) => ({ song: await catalogue.song(actor, params.required('id')) }),
    }),
    method({
      name: 'getMusicDirectory',
      needs: 'read',
      handle: async ({ actor, params }) => {
        const directory = await catalogue.directory(actor, params.required('id'));
        const children = (directory.child ?? []) as readonly SubsonicNode[];
        const id = String(directory.id);
        const rated = await ratings(actor.id, [
          id,
          ...children.filter((child) => child.isDir).map((c) => String(c.id)),
        ]);
        return {
          directory: {
            ...directory,
            userRating: rated.get(id),
            child: children.map((child) =>
              child.isDir ? { ...child, userRating: rated.get(String(child.id)) } : child,
            ),
          },
        };
      },
    }),
    method({
      name: 'getGenres',
      needs: 'read',
      handle: async ({ actor }) => ({
        genres: {
          genre: (await catalogue.genres(actor)).map((genre) => ({
            songCount: genre.song_count,
            albumCount: genre.album_count,
            value: genre.genre,
          })),
        },
      }),
    }),
  ];
}

import {
  CreatePlaylistRequestSchema,
  PLAYLIST_MAX_TRACKS,
  UpdatePlaylistRequestSchema,
  type Playlist,
} from '@riff/contract';
import type { z } from 'zod';
import type { UserActor } from '../../../platform/access/actor.js';
import { AppError } from '../../../platform/errors/app-error.js';
import type { PlaylistTracksService } from '../../playlists/playlist-tracks.service.js';
import type { PlaylistsService } from '../../playlists/playlists.service.js';
import { isUuid } from '../album-ids.js';
import { SUBSONIC_ERROR, SubsonicError, notAuthorised, notFoundError } from '../rest-error.js';
import { method, type SubsonicMethod } from '../rest-methods.js';
import type { SubsonicParams } from '../rest-params.js';
import type { SubsonicNode } from '../rest-serializer.js';
import type { LibrarySongs, SubsonicSongs } from '../subsonic-songs.js';

export interface PlaylistMethodsDeps {
  /** The playlists area's service: the JSON API's reads and writes of playlists, with their rules and events. */
  playlists: Pick<PlaylistsService, 'library' | 'visibleTrackIds' | 'get' | 'create' | 'update' | 'remove'>;
  /** The playlists area's service of a playlist's tracks (adds, removes: the favorites playlist's are likes). */
  tracks: Pick<PlaylistTracksService, 'add' | 'remove'>;
  songs: SubsonicSongs;
  /** Owners' usernames by id (the users area's PeopleReader.names). */
  names(ids: readonly string[]): Promise<Map<string, { username: string }>>;
  /** One unit of work (the platform's scope): a call's changes all happen or none does. */
  transaction<T>(work: () => Promise<T>): Promise<T>;
}

/** A playlist's tracks as GET /playlists/{id} shows them: all of them, not the first page. */
const EVERY_TRACK = { offset: 0, limit: PLAYLIST_MAX_TRACKS };

const notFound = () => notFoundError('Playlist');

/** A playlist id as apps send it back; anything but a UUID names no playlist. */
function playlistId(params: SubsonicParams, name: string): string {
  const id = params.required(name);
  if (!isUuid(id)) throw notFound();
  return id.toLowerCase();
}

/** Values checked by the JSON API's own schema (trimmed, lengths), a refusal as error 0 with its words. */
function checked<S extends z.ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') === 'title' ? 'name' : issue?.path.join('.') === 'description' ? 'comment' : '';
  throw new SubsonicError(SUBSONIC_ERROR.generic, `Parameter ${field || 'value'}: ${issue?.message ?? 'invalid'}`);
}

/** Every value of a repeatable parameter, each once, in the order first sent. */
const distinct = (values: readonly string[]) => [...new Set(values.map((value) => value.toLowerCase()))];

/**
 * Playlists: getPlaylists, getPlaylist, createPlaylist, updatePlaylist, deletePlaylist, over Riff's
 * playlists through the playlists area's services, so the JSON API's rules (who sees and edits what,
 * limits, the favorites playlist's likes) and events hold. A playlist's entries are its tracks the
 * caller may see (GET /playlists/{id}) that are songs of their library, in order; songCount,
 * duration and coverArt (the first entry's) are those entries'. A Riff playlist holds a track once:
 * a song sent twice, or already there, is added once.
 */
export function playlistMethods(deps: PlaylistMethodsDeps): SubsonicMethod[] {
  const { playlists, tracks, songs } = deps;

  async function owners(list: readonly Playlist[]): Promise<Map<string, string>> {
    const people = await deps.names([...new Set(list.map((playlist) => playlist.user_id))]);
    return new Map([...people].map(([id, person]) => [id, person.username]));
  }

  /** Playlist (the XSD's order), with its entries when `withEntries`. */
  function playlistNode(
    actor: UserActor,
    playlist: Playlist,
    entryIds: readonly string[],
    found: LibrarySongs,
    owner: string | undefined,
    withEntries: boolean,
  ): SubsonicNode {
    const entries = songs.nodes(actor, entryIds, found);
    const duration = entryIds.reduce((sum, id) => sum + Math.round(found.rows.get(id)?.duration ?? 0), 0);
    return {
      id: playlist.id,
      name: playlist.title,
      comment: playlist.description ?? undefined,
      owner,
      public: playlist.is_public,
      songCount: entries.length,
      duration,
      created: playlist.created_at,
      changed: playlist.updated_at,
      coverArt: entryIds[0],
      entry: withEntries ? entries : undefined,
    };
  }

  /** getPlaylist's reply: the playlist as GET /playlists/{id} shows it to the caller (404 there is 70 here). */
  async function withSongs(actor: UserActor, id: string): Promise<SubsonicNode> {
    const { playlist } = await playlists.get(actor, id, EVERY_TRACK);
    const trackIds = (playlist.tracks ?? []).map((entry) => entry.track_id);
    const found = await songs.find(actor, trackIds);
    const entryIds = trackIds.filter((trackId) => found.rows.has(trackId));
    const owner = (await owners([playlist])).get(playlist.user_id);
    return { playlist: playlistNode(actor, playlist, entryIds, found, owner, true) };
  }

  /** The playlist's entries as getPlaylist lists them (the indexes songIndexToRemove names); 70 if unseen. */
  async function currentEntries(actor: UserActor, id: string): Promise<string[]> {
    const visible = (await playlists.visibleTrackIds(actor, [id])).get(id);
    if (!visible) throw notFound();
    return songs.inLibrary(actor, visible);
  }

  /** Songs to add: each must be in the caller's library (70 otherwise), checked before anything changes. */
  async function songsToAdd(actor: UserActor, ids: readonly string[]): Promise<string[]> {
    const wanted = distinct(ids);
    const inLibrary = new Set(await songs.inLibrary(actor, wanted));
    if (wanted.some((id) => !inLibrary.has(id))) throw notFoundError('Song');
    return wanted;
  }

  /** Adds through the service; a track already there stays where it is (Riff holds a track once per playlist). */
  async function add(actor: UserActor, id: string, trackIds: readonly string[]) {
    for (const trackId of trackIds) {
      try {
        await tracks.add(actor, id, undefined, { track_id: trackId });
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'TRACK_ALREADY_IN_PLAYLIST')) throw error;
      }
    }
  }

  async function remove(actor: UserActor, id: string, trackIds: readonly string[]) {
    for (const trackId of trackIds) await tracks.remove(actor, id, undefined, trackId);
  }

  return [
    method({
      name: 'getPlaylists',
      needs: 'read',
      handle: async ({ actor, params }) => {
        // another user's playlists would be an admin's reading (Subsonic's rule): Riff's admins get no more than anyone
        const asked = params.get('username');
        if (asked !== undefined && asked !== '' && asked.toLowerCase() !== actor.user.username.toLowerCase()) {
          throw notAuthorised('You may only list your own playlists');
        }
        const list = await playlists.library(actor);
        const entries = await playlists.visibleTrackIds(
          actor,
          list.map((playlist) => playlist.id),
        );
        const found = await songs.find(actor, [...new Set([...entries.values()].flat())]);
        const names = await owners(list);
        return {
          playlists: {
            playlist: list.map((playlist) => {
              const entryIds = (entries.get(playlist.id) ?? []).filter((trackId) => found.rows.has(trackId));
              return playlistNode(actor, playlist, entryIds, found, names.get(playlist.user_id), false);
            }),
          },
        };
      },
    }),
    method({
      name: 'getPlaylist',
      needs: 'read',
      handle: async ({ actor, params }) => withSongs(actor, playlistId(params, 'id')),
    }),
    // with playlistId, its songs become these (the entries the caller sees go, then these are added in order;
    // tracks they may not see stay, ahead of them); otherwise a new private playlist of these songs
    method({
      name: 'createPlaylist',
      needs: 'write',
      handle: async ({ actor, params }) => {
        const songIds = params.all('songId');
        if (params.get('playlistId') !== undefined && params.get('playlistId') !== '') {
          const id = playlistId(params, 'playlistId');
          const name = params.get('name');
          const title = name ? checked(UpdatePlaylistRequestSchema, { title: name }).title : undefined;
          await deps.transaction(async () => {
            const current = await currentEntries(actor, id);
            const wanted = await songsToAdd(actor, songIds);
            if (title !== undefined) await playlists.update(actor, id, undefined, { title });
            await remove(actor, id, current);
            await add(actor, id, wanted);
          });
          return withSongs(actor, id);
        }
        const { title } = checked(CreatePlaylistRequestSchema, { title: params.required('name') });
        const id = await deps.transaction(async () => {
          const wanted = await songsToAdd(actor, songIds);
          const created = await playlists.create(actor, { title });
          await add(actor, created.id, wanted);
          return created.id;
        });
        return withSongs(actor, id);
      },
    }),
    // removals first, by index into the entries as getPlaylist lists them before this call, then additions
    method({
      name: 'updatePlaylist',
      needs: 'write',
      handle: async ({ actor, params }) => {
        const id = playlistId(params, 'playlistId');
        const comment = params.get('comment');
        const details = checked(UpdatePlaylistRequestSchema, {
          ...(params.get('name') ? { title: params.get('name') } : {}),
          // an empty comment clears it
          ...(comment !== undefined ? { description: comment.trim() === '' ? null : comment } : {}),
          ...(params.get('public') ? { is_public: params.boolean('public', false) } : {}),
        });
        const indexes = params.all('songIndexToRemove').map((value) => {
          if (!/^\d{1,9}$/.test(value)) {
            throw new SubsonicError(SUBSONIC_ERROR.generic, 'Parameter songIndexToRemove must be a whole number');
          }
          return Number(value);
        });
        const toAdd = params.all('songIdToAdd');
        await deps.transaction(async () => {
          if (Object.keys(details).length > 0) await playlists.update(actor, id, undefined, details);
          if (indexes.length > 0) {
            const current = await currentEntries(actor, id);
            if (indexes.some((index) => index >= current.length)) {
              throw new SubsonicError(
                SUBSONIC_ERROR.generic,
                `Parameter songIndexToRemove must be below ${current.length}, the playlist's number of songs`,
              );
            }
            await remove(actor, id, distinct(indexes.map((index) => current[index]!)));
          }
          if (toAdd.length > 0) await add(actor, id, await songsToAdd(actor, toAdd));
          // nothing asked: still only for someone who sees the playlist
          if (Object.keys(details).length === 0 && indexes.length === 0 && toAdd.length === 0) {
            await currentEntries(actor, id);
          }
        });
        return {};
      },
    }),
    method({
      name: 'deletePlaylist',
      needs: 'write',
      handle: async ({ actor, params }) => {
        await playlists.remove(actor, playlistId(params, 'id'), undefined);
        return {};
      },
    }),
  ];
}

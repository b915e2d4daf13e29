import { endCollaborationsOnBlock } from './playlists.events.js';
import type { Playlist } from '@riff/contract';
import type { Platform } from '../../platform/platform.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import type { RiffModule } from '../../platform/module.js';
import type { Searcher } from '../../platform/search/searcher.js';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackCounters } from '../tracks/track-counters.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CollaboratorsRepository } from './collaborators.repository.js';
import { FavoritesService } from './favorites.service.js';
import { CollaboratorsService } from './collaborators.service.js';
import { createPlaylistLibrary, playlistLibraryRoutes } from './playlist-library.routes.js';
import { PlaylistReader } from './playlist-reader.js';
import { PlaylistTracksService } from './playlist-tracks.service.js';
import { PlaylistAccountData } from './playlist-account-data.js';
import { playlistCoreRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';
import type { PlaylistsParts } from './playlists.parts.js';
import { PlaylistsRepository } from './playlists.repository.js';

export interface PlaylistsModuleDeps {
  /** The tracks area's read port: which tracks a caller may see, and the Track mapper. */
  tracks: TrackReader;
  /** The tracks area's counters: an erased account's likes leave like_count. */
  trackCounters: TrackCounters;
  /** The users area's read port: accounts, blocks and profiles of collaborators. */
  people: PeopleReader;
}

export type PlaylistsModule = RiffModule & {
  /** For the social module: likes are the favorites playlist. */
  favorites: FavoritesService;
  /** For GET /search and its suggestions: the playlists' part. */
  searcher: Searcher<Playlist>;
  /** For webhooks: a playlist as this caller reads it (without its tracks), if they may. */
  playlistFor(actor: Actor, id: string): Promise<Playlist | undefined>;
};

/**
 * Playlists: the core routes (playlists, their tracks, collaborators, share links, copies,
 * followers, the favorites playlist that likes fill) and the library routes (import, export,
 * search, recommendations, analytics), each part a routes object over the same PlaylistsParts.
 */
export function createPlaylistsModule(platform: Platform, deps: PlaylistsModuleDeps): PlaylistsModule {
  const playlists = new PlaylistsRepository(platform.scope);
  const collaborators = new CollaboratorsRepository(platform.scope);
  const favorites = new FavoritesService({
    scope: platform.scope,
    playlists,
    events: platform.events,
    likes: deps.trackCounters,
  });
  const reader = new PlaylistReader({ playlists, collaborators, tracks: deps.tracks, people: deps.people });
  const parts: PlaylistsParts = {
    platform,
    playlists,
    collaborators,
    favorites,
    reader,
    tracks: deps.tracks,
    people: deps.people,
  };
  const library = createPlaylistLibrary(parts);
  // each part of the area adds its routes object here (keys as in contract.playlists)
  const routeParts: object[] = [
    playlistCoreRoutes({
      playlists: new PlaylistsService(parts),
      tracks: new PlaylistTracksService(parts),
      collaborators: new CollaboratorsService(parts),
    }),
    playlistLibraryRoutes(library),
  ];
  const accountData = new PlaylistAccountData(parts);
  return {
    name: 'playlists',
    routes: { playlists: Object.assign({}, ...routeParts) as Record<string, unknown> },
    eventHandlers: [endCollaborationsOnBlock(collaborators) as unknown as EventHandler],
    accountData: { export: (owner) => accountData.exportFor(owner), erase: (owner) => accountData.eraseFor(owner) },
    favorites,
    playlistFor: async (actor, id) =>
      reader.summaries(actor, await playlists.findViews([id], actor.id, reader.visible(actor)))[0],
    searcher: {
      search: async (actor, q, page) => {
        const found = await library.search(actor, { q, ...page });
        return { items: found.playlists, total: found.pagination.total };
      },
      suggest: (actor, prefix, limit) => library.suggest(actor, prefix, limit),
    },
  };
}

import { endCollaborationsOnBlock } from './playlists.events.js';
import { contract, type Playlist } from '@riff/contract';
import type { Platform } from '../../platform/platform.js';
import type { EventHandler } from '../../platform/events/event-bus.js';
import { contractRoutes } from '../../platform/http/contract-routes.js';
import type { RiffModule } from '../../platform/module.js';
import type { Searcher } from '../../platform/search/searcher.js';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackCounters } from '../tracks/track-counters.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import { CollaboratorsRepository } from './collaborators.repository.js';
import { FavoritesService } from './favorites.service.js';
import { CollaboratorsService } from './collaborators.service.js';
import { PlaylistLibraryRepository } from './playlist-library.repository.js';
import { playlistLibraryRoutes } from './playlist-library.routes.js';
import { type PlaysFromPlaylist, PlaylistLibraryService } from './playlist-library.service.js';
import { PlaylistReader } from './playlist-reader.js';
import { PlaylistTracksService } from './playlist-tracks.service.js';
import { PlaylistAccountData } from './playlist-account-data.js';
import { playlistCoreRoutes } from './playlists.routes.js';
import { PlaylistsService } from './playlists.service.js';
import { PlaylistsRepository } from './playlists.repository.js';
import type { ModeratedContent } from '../../platform/access/moderation.js';
import { createPlaylistModeration } from './playlist-moderation.js';
import { canReadPlaylist, roleOf } from './playlists.policy.js';

export interface PlaylistsModuleDeps {
  /** The tracks area's read port: which tracks a caller may see, and the Track mapper. */
  tracks: TrackReader;
  /** The tracks area's counters: an erased account's likes leave like_count. */
  trackCounters: TrackCounters;
  /** The users area's read port: accounts, blocks and profiles of collaborators. */
  people: PeopleReader;
  /** The analytics area's roll-ups: counted plays started from a playlist (all time), and its most played tracks. */
  playsFrom: PlaysFromPlaylist;
}

export type PlaylistsModule = RiffModule & {
  /** Its items' moderation state, for the moderation area. */
  moderation: ModeratedContent;
  /** The area's services, for the service-level tests (routes are the only other caller). */
  services: {
    playlists: PlaylistsService;
    tracks: PlaylistTracksService;
    collaborators: CollaboratorsService;
    library: PlaylistLibraryService;
  };
  /** For the social module: likes are the favorites playlist. */
  favorites: FavoritesService;
  /** For GET /search and its suggestions: the playlists' part. */
  searcher: Searcher<Playlist>;
  /** For webhooks: a playlist as this caller reads it (without its tracks), if they may. */
  playlistFor(actor: Actor, id: string): Promise<Playlist | undefined>;
  /** The same for many: those of `ids` the caller may read, by id. */
  playlistsFor(actor: Actor, ids: readonly string[]): Promise<Map<string, Playlist>>;
  /** For the admin area's figures: playlists made since. */
  createdSince(since: Date): Promise<number>;
};

/**
 * Playlists: the core routes (playlists, their tracks, collaborators, share links, copies,
 * followers, the favorites playlist that likes fill) and the library routes (import, export,
 * search, recommendations, analytics).
 */
export function createPlaylistsModule(platform: Platform, deps: PlaylistsModuleDeps): PlaylistsModule {
  const { scope, clock, events } = platform;
  const { tracks, people } = deps;
  const { publicBaseUrl } = platform.config;
  const playlists = new PlaylistsRepository(scope);
  const collaborators = new CollaboratorsRepository(scope);
  const favorites = new FavoritesService({ scope, playlists, events, likes: deps.trackCounters });
  const reader = new PlaylistReader({ playlists, collaborators, tracks, people });
  const library = new PlaylistLibraryService({
    scope,
    library: new PlaylistLibraryRepository(scope),
    playlists,
    reader,
    people,
    events,
    clock,
    publicBaseUrl,
    playsFrom: deps.playsFrom,
  });
  const accountData = new PlaylistAccountData({ scope, collaborators, favorites });
  const services = {
    playlists: new PlaylistsService({ scope, clock, events, playlists, collaborators, reader, people }),
    tracks: new PlaylistTracksService({ scope, clock, events, playlists, reader, tracks, favorites }),
    collaborators: new CollaboratorsService({
      scope,
      clock,
      events,
      playlists,
      collaborators,
      reader,
      people,
      publicBaseUrl,
    }),
    library,
  };
  async function readable(actor: Actor, ids: readonly string[]): Promise<Map<string, Playlist>> {
    if (ids.length === 0) return new Map();
    const views = await playlists.findViews([...ids], actor.id, reader.visible(actor));
    const seen = views.filter((view) => actor.kind === 'system' || canReadPlaylist(roleOf(actor, view)));
    return new Map(reader.summaries(actor, seen).map((playlist) => [playlist.id, playlist]));
  }
  return {
    name: 'playlists',
    moderation: createPlaylistModeration(platform.scope, platform.clock),
    routes: {
      playlists: contractRoutes(contract.playlists, {
        ...playlistCoreRoutes(services),
        ...playlistLibraryRoutes(library),
      }),
    },
    services,
    eventHandlers: [endCollaborationsOnBlock(collaborators) as unknown as EventHandler],
    accountData: { export: (owner) => accountData.exportFor(owner), erase: (owner) => accountData.eraseFor(owner) },
    favorites,
    createdSince: (since) => playlists.createdSince(since),
    // as GET /playlists/{id} reads it: undefined when it does not exist for the caller (private, or
    // hidden by moderation); the service itself (system) reads any playlist
    playlistFor: async (actor, id) => (await readable(actor, [id])).get(id),
    playlistsFor: readable,
    searcher: {
      search: async (actor, q, page) => {
        const found = await library.search(actor, { q, ...page });
        return { items: found.playlists, total: found.pagination.total };
      },
      suggest: (actor, prefix, limit) => library.suggest(actor, prefix, limit),
    },
  };
}

import './playlists.events.js';
import type { Platform } from '../../platform/platform.js';
import type { RiffModule } from '../../platform/module.js';
import { FavoritesService } from './favorites.service.js';
import { PlaylistsRepository } from './playlists.repository.js';

export type PlaylistsModule = RiffModule & {
  /** For the social module: likes are the favorites playlist. */
  favorites: FavoritesService;
};

/**
 * Playlists. So far only the favorites playlist that likes fill (the tables have SPEC's Playlist
 * fields); the playlists area adds its routes, service and policy here.
 */
export function createPlaylistsModule(platform: Platform): PlaylistsModule {
  const favorites = new FavoritesService({ scope: platform.scope, playlists: new PlaylistsRepository(platform.scope), events: platform.events });
  return {
    name: 'playlists',
    accountData: { erase: (owner) => favorites.eraseFor(owner) },
    favorites,
  };
}

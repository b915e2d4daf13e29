import type { Platform } from '../../platform/platform.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { PeopleReader } from '../users/people-reader.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';
import type { FavoritesService } from './favorites.service.js';
import type { PlaylistReader } from './playlist-reader.js';
import type { PlaylistsRepository } from './playlists.repository.js';

/** What every part of the area is built from: the routes of each part take what they need. */
export interface PlaylistsParts {
  platform: Platform;
  playlists: PlaylistsRepository;
  collaborators: CollaboratorsRepository;
  favorites: FavoritesService;
  /** Who may see a playlist, what they are to it, and its contract shapes for them. */
  reader: PlaylistReader;
  tracks: TrackReader;
  people: PeopleReader;
}

import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { CollaboratorsRepository } from './collaborators.repository.js';
import type { FavoritesService } from './favorites.service.js';

export interface PlaylistAccountDataDeps {
  scope: DbScope;
  collaborators: CollaboratorsRepository;
  favorites: FavoritesService;
}

/** The user's part of the data export, and erasure with the account. */
export class PlaylistAccountData {
  constructor(private readonly deps: PlaylistAccountDataDeps) {}

  async exportFor(owner: UserActor) {
    const { collaborators } = this.deps;
    const [playlists, collaborations, follows] = await Promise.all([
      collaborators.exportOwned(owner.id),
      collaborators.exportCollaborations(owner.id),
      collaborators.exportFollows(owner.id),
    ]);
    return {
      playlists: playlists.map((row) => ({ ...row, created_at: row.created_at.toISOString() })),
      playlist_collaborations: collaborations.map((row) => ({
        playlist_id: row.playlist_id,
        permission: row.permission,
        since: row.created_at.toISOString(),
      })),
      playlist_follows: follows.map((row) => ({ playlist_id: row.playlist_id, since: row.created_at.toISOString() })),
    };
  }

  /** Follows leave the followed playlists' counts, collaborations go, then the likes and the user's playlists. */
  eraseFor(owner: UserActor) {
    return this.deps.scope.transaction(async () => ({
      ...(await this.deps.collaborators.eraseParticipation(owner.id)),
      ...(await this.deps.favorites.eraseFor(owner)),
    }));
  }
}

import type { UserActor } from '../../platform/access/actor.js';
import type { PlaylistsParts } from './playlists.parts.js';

/** The user's part of the data export, and erasure with the account. */
export class PlaylistAccountData {
  constructor(private readonly parts: PlaylistsParts) {}

  async exportFor(owner: UserActor) {
    const { collaborators } = this.parts;
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
    return this.parts.platform.scope.transaction(async () => ({
      ...(await this.parts.collaborators.eraseParticipation(owner.id)),
      ...(await this.parts.favorites.eraseFor(owner)),
    }));
  }
}

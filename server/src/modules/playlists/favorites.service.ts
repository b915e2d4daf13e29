import type { UserActor } from '../../platform/access/actor.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { TrackCounters } from '../tracks/track-counters.js';
import type { PlaylistsRepository } from './playlists.repository.js';

/**
 * Likes are the favorites playlist: liking adds the track to the liker's favorites,
 * unliking removes it, and removing it from that playlist (the playlists area's route, later) is
 * an unlike. Every change to a favorites playlist goes through here and records track.liked or
 * track.unliked in its transaction; the tracks area keeps the track's like_count from those events,
 * so the playlist, the count and the events never disagree.
 */
export class FavoritesService {
  constructor(
    private readonly deps: { scope: DbScope; playlists: PlaylistsRepository; events: EventBus; likes: TrackCounters },
  ) {}

  /** Adds the track to the actor's favorites; answers whether it was newly liked. The caller checked the actor may see it. */
  like(actor: UserActor, trackId: string): Promise<boolean> {
    return this.deps.scope.transaction(async () => {
      const favorites = await this.deps.playlists.favoritesOf(actor.id);
      await this.deps.playlists.lock(favorites.id);
      if (!(await this.deps.playlists.append(favorites.id, trackId, actor.id))) return false;
      await this.deps.events.record(actor, 'track.liked', {
        subject: { resource: 'track', id: trackId },
        data: { playlist_id: favorites.id },
      });
      return true;
    });
  }

  /** Removes the track from the actor's favorites; answers whether it was liked before. */
  unlike(actor: UserActor, trackId: string): Promise<boolean> {
    return this.deps.scope.transaction(async () => {
      const favorites = await this.deps.playlists.findFavorites(actor.id);
      if (!favorites) return false;
      await this.deps.playlists.lock(favorites.id);
      if (!(await this.deps.playlists.remove(favorites.id, trackId))) return false;
      await this.deps.events.record(actor, 'track.unliked', {
        subject: { resource: 'track', id: trackId },
        data: { playlist_id: favorites.id },
      });
      return true;
    });
  }

  async isLiked(userId: string, trackId: string): Promise<boolean> {
    const favorites = await this.deps.playlists.findFavorites(userId);
    return favorites !== undefined && (await this.deps.playlists.contains(favorites.id, trackId));
  }

  /** Account deletion: the user's likes leave the tracks' like_count, then their playlists go. */
  eraseFor(owner: UserActor): Promise<{ removed_likes: number; removed_playlists: number }> {
    return this.deps.scope.transaction(async () => {
      const liked = await this.deps.playlists.favoriteTrackIds(owner.id);
      await this.deps.likes.withdrawLikes(liked);
      return { removed_likes: liked.length, removed_playlists: await this.deps.playlists.removeAllOf(owner.id) };
    });
  }
}

import { PLAYLIST_MAX_TRACKS, type AddPlaylistTrackRequest } from '@riff/contract';
import type { UserActor } from '../../platform/access/actor.js';
import { AppError, invalidField, limitReached, notFound } from '../../platform/errors/app-error.js';
import type { Clock } from '../../platform/clock.js';
import type { DbScope } from '../../platform/db/transactions.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import type { TrackReader } from '../tracks/track-reader.js';
import type { FavoritesService } from './favorites.service.js';
import type { PlaylistReader } from './playlist-reader.js';
import type { PlaylistsRepository } from './playlists.repository.js';
import { snapshotOf } from './playlists.mapper.js';
import type { PlaylistAccess } from './playlist-reader.js';
import { writePlaylist } from './playlist-writes.js';

const invalidOrder = (message: string) => invalidField('track_ids', message);

export interface PlaylistTracksServiceDeps {
  clock: Clock;
  events: EventBus;
  scope: DbScope;
  playlists: PlaylistsRepository;
  reader: PlaylistReader;
  /** Only tracks the caller may see are added. */
  tracks: TrackReader;
  /** Adding to the favorites playlist is a like. */
  favorites: FavoritesService;
}

/**
 * A playlist's tracks: add, remove, reorder, each under the playlist's lock with positions kept
 * 0…n-1. In the favorites playlist adding is a like and removing an unlike (FavoritesService), so
 * the playlist, the track's like_count and the like events never disagree.
 */
export class PlaylistTracksService {
  constructor(private readonly deps: PlaylistTracksServiceDeps) {}

  private async version(id: string) {
    const row = await this.deps.playlists.lockRow(id);
    return row ? row.version : 0;
  }

  private event(actor: UserActor, access: PlaylistAccess) {
    return { subject: { resource: 'playlist', id: access.view.id }, userId: access.view.user_id };
  }

  async add(actor: UserActor, id: string, ifMatch: string | undefined, body: AddPlaylistTrackRequest) {
    const { playlists, tracks, favorites, clock, events } = this.deps;
    await tracks.assertVisible(actor, [body.track_id]);
    const version: number = await writePlaylist<number>(this.deps, actor, id, 'write', ifMatch, async (access) => {
      if (await playlists.contains(id, body.track_id))
        throw new AppError('TRACK_ALREADY_IN_PLAYLIST', 'The track is already in the playlist');
      const count = await playlists.trackCount(id);
      if (count >= PLAYLIST_MAX_TRACKS) throw limitReached(`A playlist holds at most ${PLAYLIST_MAX_TRACKS} tracks`);
      const position = Math.min(body.position ?? count, count);
      if (access.view.is_default_favorites) {
        // a like (like_count, track.liked), then put where it was asked for
        await favorites.like(actor, body.track_id);
        if (position < count) await playlists.moveLastTo(id, body.track_id, position);
        return this.version(id);
      }
      await playlists.insertAt(id, body.track_id, position, actor.id);
      const row = await playlists.update(id, {}, clock.now());
      await events.record(actor, 'playlist.track_added', {
        ...this.event(actor, access),
        data: { track_id: body.track_id, position, snapshot_id: snapshotOf(row) },
      });
      return row.version;
    });
    return { message: 'Track added to the playlist', snapshot_id: String(version), version };
  }

  async remove(actor: UserActor, id: string, ifMatch: string | undefined, trackId: string) {
    const { playlists, favorites, clock, events } = this.deps;
    const version: number = await writePlaylist<number>(this.deps, actor, id, 'write', ifMatch, async (access) => {
      if (access.view.is_default_favorites) {
        if (!(await favorites.unlike(actor, trackId))) throw notFound('Track');
        return this.version(id);
      }
      if (!(await playlists.remove(id, trackId))) throw notFound('Track');
      const row = await playlists.update(id, {}, clock.now());
      await events.record(actor, 'playlist.track_removed', {
        ...this.event(actor, access),
        data: { track_id: trackId, snapshot_id: snapshotOf(row) },
      });
      return row.version;
    });
    return { message: 'Track removed from the playlist', snapshot_id: String(version), version };
  }

  /** track_ids: every track of the playlist exactly once, those the caller may not see included. */
  async reorder(actor: UserActor, id: string, ifMatch: string | undefined, trackIds: readonly string[]) {
    const { playlists, clock, events } = this.deps;
    const version: number = await writePlaylist<number>(this.deps, actor, id, 'write', ifMatch, async (access) => {
      const current = await playlists.trackIds(id);
      const sent = new Set(trackIds);
      if (sent.size !== trackIds.length) throw invalidOrder('must not name a track twice');
      if (trackIds.length !== current.length || current.some((trackId) => !sent.has(trackId))) {
        throw invalidOrder(`must name every track of the playlist exactly once (${current.length})`);
      }
      await playlists.reorder(id, trackIds);
      const row = await playlists.update(id, {}, clock.now());
      await events.record(actor, 'playlist.updated', {
        ...this.event(actor, access),
        data: { fields: ['tracks'], snapshot_id: snapshotOf(row) },
      });
      return row.version;
    });
    return { message: 'Tracks reordered', snapshot_id: String(version), version };
  }
}

import type { Updateable } from 'kysely';
import type { Logger } from 'pino';
import type { ErrorCode, ListTracksQuery, UpdateTrackRequest } from '@riff/contract';
import { systemActor, type Actor, type UserActor } from '../../platform/access/actor.js';
import type { ErasureOptions } from '../../platform/accounts/account-data.js';
import type { Clock } from '../../platform/clock.js';
import type { TrackRow, TracksTable } from './tracks.tables.js';
import type { DbScope } from '../../platform/db/transactions.js';
import { removedContent } from '../../platform/access/moderation.js';
import { forbidden, notFound } from '../../platform/errors/app-error.js';
import type { EventBus } from '../../platform/events/event-bus.js';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { parseLrc } from './lyrics.js';
import { toTrackDto } from './track.mapper.js';
import { canDeleteTrack, canEditTrack, canReadTrack } from './tracks.policy.js';
import type { TracksRepository } from './tracks.repository.js';
import type { RecentTracks } from './recent-tracks.js';
import type { MediaService } from '../media/media.service.js';

export type TrackUpdate = UpdateTrackRequest;

export interface TracksServiceDeps {
  scope: DbScope;
  tracks: TracksRepository;
  storage: ObjectStorage;
  events: EventBus;
  clock: Clock;
  logger: Logger;
  recent: RecentTracks;
  media: MediaService;
  /** For the absolute URLs of a track's media (waveform_url). */
  publicBaseUrl: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const NOT_YOURS = 'Only the owner or an admin can change this track';

function toChanges(update: TrackUpdate): Updateable<TracksTable> {
  const { genres, tags, ...rest } = update;
  return {
    ...rest,
    ...(genres !== undefined ? { genres: JSON.stringify([...new Set(genres)]) } : {}),
    ...(tags !== undefined ? { tags: JSON.stringify([...new Set(tags)]) } : {}),
  };
}

function toLyrics(row: { track_id: string; content: string; is_synced: boolean; updated_at: Date }) {
  return {
    track_id: row.track_id,
    content: row.content,
    is_synced: row.is_synced,
    lines: row.is_synced ? parseLrc(row.content) : null,
    updated_at: row.updated_at.toISOString(),
  };
}

/** Reading, editing and deleting tracks; lyrics; processing status; a user's tracks in their export and erasure. */
export class TracksService {
  constructor(private readonly deps: TracksServiceDeps) {}

  /** A track the actor may see; private tracks of others are 404, as if they did not exist. */
  async visible(actor: Actor, id: string, secret?: string): Promise<TrackRow> {
    const track = await this.deps.tracks.findLive(id);
    if (!track || !canReadTrack(actor, track, secret)) throw notFound('Track');
    return track;
  }

  /** The same, for streaming: served from the tracks read in the last second (see RecentTracks). */
  async streamable(actor: Actor, id: string, secret?: string): Promise<TrackRow> {
    let track = this.deps.recent.get(id);
    if (!track) {
      track = await this.deps.tracks.findLive(id);
      if (track) this.deps.recent.remember(track);
    }
    if (!track || !canReadTrack(actor, track, secret)) throw notFound('Track');
    return track;
  }

  /**
   * Counts a download for the owner's stats and analytics: a reply from the first byte (a whole
   * file, a redirect to it, or the first range); the following ranges of the same download do not
   * count. The row and the event commit together, so the stats and the roll-ups agree.
   */
  async downloaded(
    actor: Actor,
    track: TrackRow,
    reply: { status: number; headers: Record<string, string> },
  ): Promise<void> {
    const firstByte = reply.status !== 206 || (reply.headers['Content-Range'] ?? '').startsWith('bytes 0-');
    if (reply.status === 304 || !firstByte) return;
    await this.deps.scope.transaction(async () => {
      await this.deps.tracks.recordDownload(track.id);
      await this.deps.events.record(actor, 'track.downloaded', {
        subject: { resource: 'track', id: track.id },
        data: { format: track.format },
        userId: actor.kind === 'user' ? actor.id : null,
      });
    });
  }

  private async editable(actor: Actor, id: string): Promise<TrackRow> {
    const track = await this.visible(actor, id);
    if (!canEditTrack(actor, track)) throw forbidden(NOT_YOURS);
    if (track.moderation_status === 'removed') throw removedContent();
    return track;
  }

  async get(actor: Actor, id: string, secret?: string) {
    return { track: toTrackDto(await this.visible(actor, id, secret), actor, this.deps.publicBaseUrl) };
  }

  async list(actor: Actor, query: ListTracksQuery) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.tracks.list(
      {
        viewerId: actor.id,
        viewerIsStaff: actor.kind === 'user' && actor.isStaff,
        q: query.q,
        genre: query.genre,
        creatorId: query.creator_id,
      },
      { by: query.sort, order: query.order },
      window,
    );
    return {
      tracks: rows.map((row) => toTrackDto(row, actor, this.deps.publicBaseUrl)),
      pagination: paginate(window, total),
    };
  }

  async update(actor: UserActor, id: string, update: TrackUpdate) {
    await this.editable(actor, id);
    const updated = await this.deps.scope.transaction(async () => {
      const row = await this.deps.tracks.update(id, toChanges(update));
      if (!row) throw notFound('Track');
      await this.deps.events.record(actor, 'track.updated', {
        subject: { resource: 'track', id },
        data: { fields: Object.keys(update).sort() },
      });
      return row;
    });
    return { track: toTrackDto(updated, actor, this.deps.publicBaseUrl) };
  }

  /** Soft delete: the row stays (deleted_at), the original file is removed and stops counting against the quota. */
  async remove(actor: UserActor, id: string) {
    const track = await this.visible(actor, id);
    if (!canDeleteTrack(actor, track)) throw forbidden(NOT_YOURS);
    await this.deleteTrack(actor, id);
    return { message: 'Track deleted' };
  }

  /**
   * Marks the track deleted and records it; its file goes once the unit of work commits (so a
   * rolled-back one leaves it in place), with an intent in the meantime for the cleanup.
   * `owner`: whose log the deletion belongs to, when someone else acts for them.
   */
  private deleteTrack(actor: Actor, id: string, owner?: string): Promise<void> {
    return this.deps.scope.transaction(async () => {
      const fileKey = await this.deps.tracks.softDelete(id, this.deps.clock.now());
      if (fileKey === undefined) throw notFound('Track');
      await this.deps.events.record(actor, 'track.deleted', {
        subject: { resource: 'track', id },
        data: {},
        ...(owner ? { userId: owner } : {}),
      });
      if (fileKey) {
        await this.deps.tracks.addIntent(fileKey);
        this.deps.scope.afterCommit(() => this.removeFile(fileKey));
      }
    });
  }

  /**
   * The purge of a track moderation removed before `cutoff` (no appeal holds it any more): deleted as
   * its owner's deletion would, its file and derived media with it. False when it is no longer so.
   */
  async purgeRemoved(id: string, cutoff: Date): Promise<boolean> {
    return this.deps.scope.transaction(async () => {
      const track = await this.deps.tracks.lockLive(id);
      if (!track || track.moderation_status !== 'removed' || !track.moderated_at || track.moderated_at >= cutoff)
        return false;
      await this.deleteTrack(systemActor(), id, track.creator_id);
      return true;
    });
  }

  /** Removes a deleted track's file; if storage fails, its intent stays behind and the cleanup retries. */
  private async removeFile(key: string): Promise<void> {
    try {
      await this.deps.storage.delete(key);
      await this.deps.tracks.removeIntent(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'could not delete a stored file; the cleanup will retry');
    }
  }

  async batchDelete(actor: UserActor, ids: string[]) {
    const { ok, failed } = await this.sortBatch(actor, ids, canDeleteTrack);
    for (const id of ok) await this.deleteTrack(actor, id);
    return { deleted: ok, failed };
  }

  async batchUpdate(actor: UserActor, ids: string[], update: TrackUpdate) {
    const { ok, failed } = await this.sortBatch(actor, ids, canEditTrack);
    const changes = toChanges(update);
    for (const id of ok) {
      await this.deps.scope.transaction(async () => {
        await this.deps.tracks.update(id, changes);
        await this.deps.events.record(actor, 'track.updated', {
          subject: { resource: 'track', id },
          data: { fields: Object.keys(update).sort(), batch: true },
        });
      });
    }
    return { updated: ok, failed };
  }

  /** Splits batch ids into those the actor may change and per-id failures. */
  private async sortBatch(actor: UserActor, ids: string[], allowed: (actor: Actor, track: TrackRow) => boolean) {
    const unique = [...new Set(ids)];
    const valid = unique.filter((id) => UUID.test(id));
    const found = new Map((await this.deps.tracks.findLiveMany(valid)).map((track) => [track.id, track]));
    const ok: string[] = [];
    const failed: { id: string; code: ErrorCode; message: string }[] = [];
    for (const id of unique) {
      const track = found.get(id);
      if (!UUID.test(id)) failed.push({ id, code: 'INVALID_ID', message: 'Not a track id' });
      else if (!track || !canReadTrack(actor, track))
        failed.push({ id, code: 'NOT_FOUND', message: 'Track not found' });
      else if (!allowed(actor, track)) failed.push({ id, code: 'FORBIDDEN', message: NOT_YOURS });
      else ok.push(id);
    }
    return { ok, failed };
  }

  /** Owner or admin; anyone else 404, even on a public track (processing is the owner's business). */
  status(actor: UserActor, id: string) {
    return this.deps.media.status(actor, id);
  }

  async lyrics(actor: Actor, id: string) {
    await this.visible(actor, id);
    const row = await this.deps.tracks.findLyrics(id);
    return { lyrics: row ? toLyrics(row) : null };
  }

  /** Empty content removes the lyrics. */
  async setLyrics(actor: UserActor, id: string, content: string) {
    await this.editable(actor, id);
    return this.deps.scope.transaction(async () => {
      await this.deps.events.record(actor, 'track.lyrics_updated', { subject: { resource: 'track', id }, data: {} });
      if (content.trim() === '') {
        await this.deps.tracks.deleteLyrics(id);
        return { lyrics: null };
      }
      const row = await this.deps.tracks.saveLyrics(id, content, parseLrc(content) !== null);
      return { lyrics: toLyrics(row) };
    });
  }

  /** The owner's part of their data export: their live tracks (with the owner's figures) and lyrics. */
  async exportFor(owner: UserActor) {
    return {
      tracks: (await this.deps.tracks.tracksOf(owner.id)).map((row) => toTrackDto(row, owner, this.deps.publicBaseUrl)),
      lyrics: (await this.deps.tracks.lyricsOf(owner.id)).map(toLyrics),
    };
  }

  /** Account deletion: every track goes, or only the private ones when public ones are kept. In the deletion's unit of work. */
  async eraseFor(owner: UserActor, options: ErasureOptions) {
    return { removed_tracks: await this.removeAllOf(owner, owner.id, options.keepPublicTracks) };
  }

  private removeAllOf(actor: Actor, ownerId: string, keepPublic: boolean): Promise<number> {
    return this.deps.scope.transaction(async () => {
      let removed = 0;
      for (const track of await this.deps.tracks.tracksOf(ownerId)) {
        if (keepPublic && track.is_public) continue;
        await this.deleteTrack(actor, track.id, ownerId);
        removed++;
      }
      return removed;
    });
  }
}

import type { Updateable } from 'kysely';
import type { Clock } from '../../platform/clock.js';
import type { TrackRow, TracksTable, UserRow } from '../../platform/db/database.schema.js';
import { forbidden, notFound } from '../../platform/errors/app-error.js';
import type { ErrorCode, ListTracksQuery, UpdateTrackRequest } from '@riff/contract';
import { paginate, pageWindow } from '../../platform/http/pagination.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import type { Logger } from 'pino';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { RequestContext } from '../../platform/http/request-context.js';
import { parseLrc } from './lyrics.js';
import { toTrackDto } from './track.mapper.js';
import type { TracksRepository } from './tracks.repository.js';

export type TrackUpdate = UpdateTrackRequest;

export interface TracksServiceDeps {
  tracks: TracksRepository;
  storage: ObjectStorage;
  audit: AuditRepository;
  clock: Clock;
  logger: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

const canSee = (track: TrackRow, viewer: UserRow | undefined) => track.is_public || (viewer !== undefined && (viewer.id === track.creator_id || viewer.is_admin));
const canEdit = (track: TrackRow, viewer: UserRow) => viewer.id === track.creator_id || viewer.is_admin;

function toChanges(update: TrackUpdate): Updateable<TracksTable> {
  const { genres, tags, ...rest } = update;
  return {
    ...rest,
    ...(genres !== undefined ? { genres: JSON.stringify([...new Set(genres)]) } : {}),
    ...(tags !== undefined ? { tags: JSON.stringify([...new Set(tags)]) } : {}),
  };
}

/** Reading, editing and deleting tracks; lyrics; processing status. Ownership is checked here. */
export class TracksService {
  constructor(private readonly deps: TracksServiceDeps) {}

  /** A track the viewer may see; private tracks of others are 404, as if they did not exist. */
  async visible(id: string, viewer: UserRow | undefined): Promise<TrackRow> {
    const track = await this.deps.tracks.findLive(id);
    if (!track || !canSee(track, viewer)) throw notFound('Track');
    return track;
  }

  private async editable(id: string, viewer: UserRow): Promise<TrackRow> {
    const track = await this.visible(id, viewer);
    if (!canEdit(track, viewer)) throw forbidden('Only the owner or an admin can change this track');
    return track;
  }

  async get(id: string, viewer: UserRow | undefined) {
    return { track: toTrackDto(await this.visible(id, viewer), viewer) };
  }

  async list(
    query: ListTracksQuery,
    viewer: UserRow | undefined,
  ) {
    const window = pageWindow(query.page, query.limit);
    const { rows, total } = await this.deps.tracks.list(
      { viewerId: viewer?.id ?? null, q: query.q, genre: query.genre, creatorId: query.creator_id },
      { by: query.sort, order: query.order },
      window,
    );
    return { tracks: rows.map((row) => toTrackDto(row, viewer)), pagination: paginate(window, total) };
  }

  async update(id: string, viewer: UserRow, update: TrackUpdate, context: RequestContext) {
    await this.editable(id, viewer);
    const updated = await this.deps.tracks.update(id, toChanges(update));
    if (!updated) throw notFound('Track');
    await this.deps.audit.record({ userId: viewer.id, action: 'track.updated', resource: 'track', resourceId: id, metadata: { fields: Object.keys(update).sort() } }, context);
    return { track: toTrackDto(updated, viewer) };
  }

  /** Soft delete: the row stays (deleted_at), the original file is removed and stops counting against the quota. */
  async remove(id: string, viewer: UserRow, context: RequestContext) {
    await this.editable(id, viewer);
    await this.deleteTrack(id, viewer.id, context);
    return { message: 'Track deleted' };
  }

  async deleteTrack(id: string, actorId: string, context: RequestContext): Promise<void> {
    const fileKey = await this.deps.tracks.softDelete(id, this.deps.clock.now());
    if (fileKey === undefined) throw notFound('Track');
    await this.deps.audit.record({ userId: actorId, action: 'track.deleted', resource: 'track', resourceId: id }, context);
    if (fileKey) await this.removeFile(fileKey);
  }

  /** Removes a file; if storage fails, an intent stays behind and the cleanup retries. */
  private async removeFile(key: string): Promise<void> {
    await this.deps.tracks.addIntent(key);
    try {
      await this.deps.storage.delete(key);
      await this.deps.tracks.removeIntent(key);
    } catch (error) {
      this.deps.logger.warn({ err: error, key }, 'could not delete a stored file; the cleanup will retry');
    }
  }

  async batchDelete(ids: string[], viewer: UserRow, context: RequestContext) {
    const { ok, failed } = await this.sortBatch(ids, viewer);
    for (const id of ok) await this.deleteTrack(id, viewer.id, context);
    return { deleted: ok, failed };
  }

  async batchUpdate(ids: string[], update: TrackUpdate, viewer: UserRow, context: RequestContext) {
    const { ok, failed } = await this.sortBatch(ids, viewer);
    const changes = toChanges(update);
    for (const id of ok) {
      await this.deps.tracks.update(id, changes);
      await this.deps.audit.record({ userId: viewer.id, action: 'track.updated', resource: 'track', resourceId: id, metadata: { fields: Object.keys(update).sort(), batch: true } }, context);
    }
    return { updated: ok, failed };
  }

  /** Splits batch ids into those the viewer may change and per-id failures. */
  private async sortBatch(ids: string[], viewer: UserRow) {
    const unique = [...new Set(ids)];
    const valid = unique.filter((id) => UUID.test(id));
    const found = new Map((await this.deps.tracks.findLiveMany(valid)).map((track) => [track.id, track]));
    const ok: string[] = [];
    const failed: { id: string; code: ErrorCode; message: string }[] = [];
    for (const id of unique) {
      const track = found.get(id);
      if (!UUID.test(id)) failed.push({ id, code: 'INVALID_ID', message: 'Not a track id' });
      else if (!track || !canSee(track, viewer)) failed.push({ id, code: 'NOT_FOUND', message: 'Track not found' });
      else if (!canEdit(track, viewer)) failed.push({ id, code: 'FORBIDDEN', message: 'Only the owner or an admin can change this track' });
      else ok.push(id);
    }
    return { ok, failed };
  }

  /** ADDENDUM: owner or admin; anyone else 404, even on a public track (processing is the owner's business). */
  async status(id: string, viewer: UserRow) {
    const track = await this.deps.tracks.findLive(id);
    if (!track || !canEdit(track, viewer)) throw notFound('Track');
    const progress = track.status === 'completed' || track.status === 'failed' ? 100 : track.status === 'processing' ? 50 : 0;
    return { progress, status: track.status, stream_status: track.stream_status, status_message: track.status_message };
  }

  async lyrics(id: string, viewer: UserRow | undefined) {
    await this.visible(id, viewer);
    const row = await this.deps.tracks.findLyrics(id);
    return { lyrics: row ? this.toLyrics(row) : null };
  }

  async setLyrics(id: string, viewer: UserRow, content: string, context: RequestContext) {
    await this.editable(id, viewer);
    await this.deps.audit.record({ userId: viewer.id, action: 'track.lyrics_updated', resource: 'track', resourceId: id }, context);
    if (content.trim() === '') {
      await this.deps.tracks.deleteLyrics(id);
      return { lyrics: null };
    }
    const row = await this.deps.tracks.saveLyrics(id, content, parseLrc(content) !== null);
    return { lyrics: this.toLyrics(row) };
  }

  private toLyrics(row: { track_id: string; content: string; is_synced: boolean; updated_at: Date }) {
    return {
      track_id: row.track_id,
      content: row.content,
      is_synced: row.is_synced,
      lines: row.is_synced ? parseLrc(row.content) : null,
      updated_at: row.updated_at.toISOString(),
    };
  }

  /** For account deletion: every track goes, or only the private ones when public ones are kept. */
  async removeTracksOf(userId: string, keepPublic: boolean, context: RequestContext): Promise<number> {
    const tracks = await this.deps.tracks.tracksOf(userId);
    let removed = 0;
    for (const track of tracks) {
      if (keepPublic && track.is_public) continue;
      await this.deleteTrack(track.id, userId, context);
      removed++;
    }
    return removed;
  }

  async tracksForExport(owner: UserRow) {
    return (await this.deps.tracks.tracksOf(owner.id)).map((row) => toTrackDto(row, owner));
  }

  async lyricsForExport(owner: UserRow) {
    return (await this.deps.tracks.lyricsOf(owner.id)).map((row) => this.toLyrics(row));
  }
}


import type { Track } from '@riff/contract';
import type { RawBuilder, SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackRow } from './tracks.tables.js';
import { notFound } from '../../platform/errors/app-error.js';
import { CONTENT_TYPES } from './audio-probe.js';
import { toTrackDto } from './track.mapper.js';
import { canReadTrack, canSeeTrackInsights, moderationWithholdsTrack, trackVisibleSql } from './tracks.policy.js';
import type { TracksRepository } from './tracks.repository.js';

/**
 * What other areas may ask the tracks area (queues, playlists, social): which tracks a caller may see,
 * and how they see them. The visibility rule stays here (tracks.policy.ts); nobody else reads the table.
 */
export interface TrackReader {
  /** Throws 404 NOT_FOUND unless every id is a live track the actor may see. */
  assertVisible(actor: Actor, ids: readonly string[]): Promise<void>;
  /** The tracks among `ids` the actor may see, as the contract's Track for them; the others are missing. */
  visibleTracks(actor: Actor, ids: readonly string[]): Promise<Map<string, Track>>;
  /**
   * The live tracks among `ids` that moderation withholds from the actor: for them these are as if
   * deleted, and a list that holds them (a queue, a session) leaves them out.
   */
  withheldTracks(actor: Actor, ids: readonly string[]): Promise<Set<string>>;
  /**
   * canReadTrack (without secret links) as SQL over the tracks table under `alias`: live, and
   * public or the caller's (every live track for admins). For reads that page or count in SQL.
   */
  visibleSql(actor: Actor, alias: string): RawBuilder<SqlBool>;
  /** A row read with visibleSql, as the contract's Track for this caller. */
  toTrack(row: TrackRow, actor: Actor): Track;
  /** Reads the tracks once, for many viewers: each viewer's `visibleTracks` is then made without the database. */
  lookup(ids: readonly string[]): Promise<TrackLookup>;
  /**
   * A live (not deleted) track's row, whoever asks, for an area that applies the track rules to it
   * itself (canReadTrack with a secret link, canRepost); undefined for a missing or deleted track.
   */
  findLive(id: string): Promise<TrackRow | undefined>;
  /**
   * Holds the track's row until the current transaction ends, so that it cannot be deleted meanwhile
   * (a comment added while the track's comments are being removed); false for a missing or deleted track.
   */
  holdLive(id: string): Promise<boolean>;
  /** The live tracks among `ids`, in no particular order. */
  findLiveMany(ids: readonly string[]): Promise<TrackRow[]>;
  /** A live track's original audio (the marketplace delivers it to a track product's buyers); undefined without one. */
  originalFile(id: string): Promise<{ key: string; filename: string; size: number; contentType: string } | undefined>;
}

export interface TrackLookup {
  /** What `visibleTracks` would answer for this viewer. */
  visibleTo(actor: Actor): Map<string, Track>;
  /** What `withheldTracks` would answer for this viewer. */
  withheldFrom(actor: Actor): Set<string>;
  /** Equal for two viewers exactly when they see these tracks alike, so one rendering can serve both. */
  viewerKey(actor: Actor): string;
}

export function createTrackReader(tracks: TracksRepository, publicBaseUrl: string): TrackReader {
  const liveRows = (ids: readonly string[]) => {
    const unique = [...new Set(ids)];
    return unique.length === 0 ? Promise.resolve([]) : tracks.findLiveMany(unique);
  };
  const visibleRows = async (actor: Actor, ids: readonly string[]) =>
    (await liveRows(ids)).filter((row) => canReadTrack(actor, row));
  return {
    async assertVisible(actor, ids) {
      const seen = new Set((await visibleRows(actor, ids)).map((row) => row.id));
      if (ids.some((id) => !seen.has(id))) throw notFound('Track');
    },
    async visibleTracks(actor, ids) {
      return new Map((await visibleRows(actor, ids)).map((row) => [row.id, toTrackDto(row, actor, publicBaseUrl)]));
    },
    async withheldTracks(actor, ids) {
      return new Set((await liveRows(ids)).filter((row) => moderationWithholdsTrack(actor, row)).map((row) => row.id));
    },
    visibleSql: trackVisibleSql,
    findLive: (id) => tracks.findLive(id),
    findLiveMany: liveRows,
    holdLive: (id) => tracks.holdLive(id),
    toTrack: (row, actor) => toTrackDto(row, actor, publicBaseUrl),
    async originalFile(id) {
      const row = await tracks.findLive(id);
      if (!row?.file_key) return undefined;
      return {
        key: row.file_key,
        filename: `${row.title}.${row.format}`,
        size: Number(row.file_size),
        contentType: CONTENT_TYPES[row.format],
      };
    },
    async lookup(ids) {
      const rows = await liveRows(ids);
      return {
        visibleTo: (actor) =>
          new Map(
            rows
              .filter((row) => canReadTrack(actor, row))
              .map((row) => [row.id, toTrackDto(row, actor, publicBaseUrl)]),
          ),
        withheldFrom: (actor) =>
          new Set(rows.filter((row) => moderationWithholdsTrack(actor, row)).map((row) => row.id)),
        // the three things toTrackDto and the filters above ask of the viewer, for each track
        viewerKey: (actor) =>
          rows
            .map(
              (row) =>
                `${Number(canReadTrack(actor, row))}${Number(canSeeTrackInsights(actor, row))}${Number(moderationWithholdsTrack(actor, row))}`,
            )
            .join(''),
      };
    },
  };
}

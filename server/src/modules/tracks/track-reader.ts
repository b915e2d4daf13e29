import type { Track } from '@riff/contract';
import type { RawBuilder, SqlBool } from 'kysely';
import type { Actor } from '../../platform/access/actor.js';
import type { TrackRow } from '../../platform/db/database.schema.js';
import { notFound } from '../../platform/errors/app-error.js';
import { toTrackDto } from './track.mapper.js';
import { canReadTrack, trackVisibleSql } from './tracks.policy.js';
import type { TracksRepository } from './tracks.repository.js';

/**
 * What other areas may ask the tracks area (queues, playlists): which tracks a caller may see, and
 * how they see them. The visibility rule stays here (tracks.policy.ts); nobody else reads the table.
 */
export interface TrackReader {
  /** Throws 404 NOT_FOUND unless every id is a live track the actor may see. */
  assertVisible(actor: Actor, ids: readonly string[]): Promise<void>;
  /** The tracks among `ids` the actor may see, as the contract's Track for them; the others are missing. */
  visibleTracks(actor: Actor, ids: readonly string[]): Promise<Map<string, Track>>;
  /**
   * canReadTrack (without secret links) as SQL over the tracks table under `alias`: live, and
   * public or the caller's (every live track for admins). For reads that page or count in SQL.
   */
  visibleSql(actor: Actor, alias: string): RawBuilder<SqlBool>;
  /** A row read with visibleSql, as the contract's Track for this caller. */
  toTrack(row: TrackRow, actor: Actor): Track;
}

export function createTrackReader(tracks: TracksRepository, publicBaseUrl: string): TrackReader {
  const visibleRows = async (actor: Actor, ids: readonly string[]) => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return (await tracks.findLiveMany(unique)).filter((row) => canReadTrack(actor, row));
  };
  return {
    async assertVisible(actor, ids) {
      const seen = new Set((await visibleRows(actor, ids)).map((row) => row.id));
      if (ids.some((id) => !seen.has(id))) throw notFound('Track');
    },
    async visibleTracks(actor, ids) {
      return new Map((await visibleRows(actor, ids)).map((row) => [row.id, toTrackDto(row, actor, publicBaseUrl)]));
    },
    visibleSql: trackVisibleSql,
    toTrack: (row, actor) => toTrackDto(row, actor, publicBaseUrl),
  };
}

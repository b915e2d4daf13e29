import type { Readable } from 'node:stream';
import type { Actor } from '../../platform/access/actor.js';
import { AppError, notFound } from '../../platform/errors/app-error.js';
import type { ObjectStorage } from '../../platform/storage/object-storage.js';
import { streamTrack, type StreamReply } from './track-streaming.js';
import type { TrackRow } from './tracks.tables.js';
import type { TracksService } from './tracks.service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The conditional headers of a request for the original (Range, If-Range, If-None-Match). */
export interface OriginalRequest {
  range?: string | undefined;
  ifNoneMatch?: string | undefined;
  ifRange?: string | undefined;
}

/** A track the caller may play, as the audio port hands it over. */
export interface PlayableTrack {
  id: string;
  creatorId: string;
  /** Seconds. */
  duration: number;
  row: TrackRow;
}

/**
 * A track's audio for another area that serves it under its own routes (the Subsonic interface):
 * the same visibility and the same replies as GET /tracks/{id}/stream and /download, so the rules
 * stay here.
 */
export interface TrackAudio {
  /**
   * A live track the actor may see (not another's private track, nothing moderation withholds from
   * them); 404 otherwise, a malformed id included. Read through the streaming cache, as the stream route does.
   */
  playable(actor: Actor, id: string): Promise<PlayableTrack>;
  /**
   * The original, as /tracks/{id}/stream (`inline`) or /tracks/{id}/download (`attachment`) answers
   * it: Range, If-Range and ETag, a redirect to a presigned URL where the store has one. A download
   * is counted for the owner's stats as that route counts it (the actor's download).
   */
  original(
    actor: Actor,
    track: PlayableTrack,
    request: OriginalRequest,
    disposition: 'inline' | 'attachment',
  ): Promise<StreamReply>;
  /** The original's bytes for a transcoder: a local path where the store has one (ffmpeg seeks in it), else a stream. */
  source(track: PlayableTrack): Promise<string | Readable>;
}

export function createTrackAudio(deps: {
  tracks: Pick<TracksService, 'streamable' | 'downloaded'>;
  storage: ObjectStorage;
}): TrackAudio {
  const { tracks, storage } = deps;
  return {
    async playable(actor, id) {
      // the ids come from a player's URL: anything but a track id is simply not found
      if (!UUID.test(id)) throw notFound('Track');
      const row = await tracks.streamable(actor, id);
      return { id: row.id, creatorId: row.creator_id, duration: row.duration, row };
    },
    async original(actor, track, request, disposition) {
      const reply = await streamTrack(storage, track.row, request, disposition);
      if (disposition === 'attachment') await tracks.downloaded(actor, track.row, reply);
      return reply;
    },
    async source(track) {
      const key = track.row.file_key;
      if (!key) throw new AppError('NOT_FOUND', 'This track has no file');
      return storage.localPath(key) ?? (await storage.get(key));
    },
  };
}

import { randomUUID } from 'node:crypto';
import type { UserActor } from '../../platform/access/actor.js';
import { removedContent } from '../../platform/access/moderation.js';
import type { TrackRow } from './tracks.tables.js';
import { AppError, forbidden, notFound } from '../../platform/errors/app-error.js';
import type { MediaService } from '../media/media.service.js';
import { createUploadInspector } from './audio-probe.js';
import { toTrackDto } from './track.mapper.js';
import { canEditTrack, canReadTrack } from './tracks.policy.js';
import { quotaExceeded, type IncomingForm, type UploadPipeline, type UploadPipelineDeps } from './upload-pipeline.js';

/** Room for multipart framing beside the file. */
const MULTIPART_OVERHEAD = 16 * 1024;

/** A new audio of a track lives alone in its folder, so a failed upload's cleanup removes only it. */
const versionKey = (trackId: string) => `tracks/${trackId}/versions/${randomUUID()}/audio`;

/** The audio columns a version sets on its track (never the title or tags the owner edited). */
function audioColumns(
  audio: Pick<
    TrackRow,
    'file_key' | 'format' | 'duration' | 'bitrate' | 'sample_rate' | 'file_size' | 'md5' | 'original_filename'
  >,
) {
  const { file_key, format, duration, bitrate, sample_rate, file_size, md5, original_filename } = audio;
  return { file_key, format, duration, bitrate, sample_rate, file_size, md5, original_filename };
}

export type TrackFileServiceDeps = Pick<
  UploadPipelineDeps,
  'limits' | 'tracks' | 'storage' | 'scope' | 'events' | 'people'
> & {
  /** The quota arithmetic and the commit of a stored file, shared with uploads. */
  pipeline: UploadPipeline;
  /** A new audio re-runs the media pipeline; a restore makes a version current. */
  media: MediaService;
  publicBaseUrl: string;
};

/**
 * PUT /tracks/{id}/file replaces a track's audio (the previous one becomes a
 * version) and POST /tracks/{id}/versions/{versionId}/restore makes an older one current again;
 * both re-run the media pipeline in the same unit of work.
 */
export class TrackFileService {
  constructor(private readonly deps: TrackFileServiceDeps) {}

  private get pipeline() {
    return this.deps.pipeline;
  }

  private async editable(actor: UserActor, trackId: string): Promise<TrackRow> {
    const track = await this.deps.tracks.findLive(trackId);
    if (!track || !canReadTrack(actor, track)) throw notFound('Track');
    if (!canEditTrack(actor, track)) throw forbidden('Only the owner or an admin can change this track');
    if (track.moderation_status === 'removed') throw removedContent();
    return track;
  }

  replace(actor: UserActor, trackId: string, form: IncomingForm<object>) {
    return this.pipeline.track(this.receive(actor, trackId, form));
  }

  private async receive(actor: UserActor, trackId: string, form: IncomingForm<object>) {
    const { tracks, storage, scope, events } = this.deps;
    const before = await this.editable(actor, trackId);
    const owner = before.creator_id;
    // the owner's allowance: an admin replacing the audio fills the owner's quota
    const { maxFileBytes, quotaBytes } = await this.pipeline.allowed(owner);
    const declared = form.declaredBytes;
    if (declared !== undefined && declared > maxFileBytes + MULTIPART_OVERHEAD) {
      throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxFileBytes} bytes`);
    }
    const room = await this.pipeline.room(owner, quotaBytes);
    if (declared !== undefined && declared > room + MULTIPART_OVERHEAD) throw quotaExceeded();

    const key = versionKey(trackId);
    await tracks.addIntent(key);
    try {
      const { file } = await form.receive(maxFileBytes, async (stream, info) => {
        const inspector = createUploadInspector({ maxBytes: room, overLimit: quotaExceeded });
        stream.on('error', (error) => inspector.stream.destroy(error));
        await storage.put(key, stream.pipe(inspector.stream));
        return { ...inspector.result(), filename: info.filename };
      });
      const metadata = await this.pipeline.probe(key, file.bytes);
      const track = await scope.transaction(async () => {
        await this.deps.people.lockAccount(owner);
        const held = await this.pipeline.bytesHeld(owner);
        const quota = (await this.pipeline.allowance(owner)).quotaBytes;
        if (held.usedBytes + held.reserved + file.bytes > quota) throw quotaExceeded();
        const columns = audioColumns({
          file_key: key,
          format: metadata.format,
          duration: metadata.duration,
          bitrate: metadata.bitrate,
          sample_rate: metadata.sampleRate,
          file_size: file.bytes,
          md5: file.md5,
          original_filename: file.filename ? file.filename.replace(/^.*[\\/]/, '').slice(0, 255) : null,
        });
        if (!(await tracks.update(trackId, columns))) throw notFound('Track');
        await tracks.removeIntent(key);
        await this.deps.media.recordAudio(actor, trackId, { ...columns, file_key: key });
        await events.record(actor, 'track.updated', {
          subject: { resource: 'track', id: trackId },
          data: { fields: ['file'] },
          userId: owner,
        });
        // read after the pipeline was queued: the reply shows the new audio's stream as pending, not the old one's as ready
        const updated = await tracks.findLive(trackId);
        if (!updated) throw notFound('Track');
        return updated;
      });
      return { track: toTrackDto(track, actor, this.deps.publicBaseUrl) };
    } catch (error) {
      await this.pipeline.discard(key);
      throw error;
    }
  }

  async restore(actor: UserActor, trackId: string, versionId: string) {
    const { tracks, scope, events } = this.deps;
    const before = await this.editable(actor, trackId);
    const track = await scope.transaction(async () => {
      const version = await this.deps.media.restoreVersion(actor, trackId, versionId);
      const updated = await tracks.update(trackId, audioColumns(version));
      if (!updated) throw notFound('Track');
      await events.record(actor, 'track.updated', {
        subject: { resource: 'track', id: trackId },
        data: { fields: ['file'] },
        userId: before.creator_id,
      });
      return updated;
    });
    return { track: toTrackDto(track, actor, this.deps.publicBaseUrl) };
  }
}
